/**
 * GET {identity}/.well-known/openid-configuration: OpenID Provider metadata (OpenID Connect
 * Discovery 1.0, RFC 8414), shaped as Keycloak serves it, so certified client libraries configure
 * themselves from the issuer alone. The issuer, and every endpoint under it, is the address the
 * document was asked at (`issuerOf`): at `tack client`'s sign-in port, that port, as the contract says.
 *
 * What the reference server is: a public-client OAuth 2.0 server with OpenID Connect's endpoint
 * layout. **It issues no ID tokens**, so it names no `jwks_uri` and no ID-token algorithms (OpenID
 * Discovery would require both): a client that asks for an ID token (a `nonce`, `max_age`) gets none.
 */
import { issuerOf, type RequestContext } from '../context.js';
import { sendJson } from '../respond.js';

export function openIdConfiguration(ctx: RequestContext): void {
  const issuer = issuerOf(ctx);
  sendJson(ctx.res, 200, {
    issuer,
    authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
    token_endpoint: `${issuer}/protocol/openid-connect/token`,
    revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
    grant_types_supported: ['authorization_code', 'refresh_token'],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    scopes_supported: ['openid', 'offline_access'],
    subject_types_supported: ['public'],
    code_challenge_methods_supported: ['S256'],
    prompt_values_supported: ['none', 'login'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
  });
}
