/**
 * The cheap probes that tell a configuration mistake from a target that breaks a rule, shared by
 * `tack doctor` (which reports each one) and the preflight of `tack run` / `tack certify` (which
 * stops at the first problem, exit 2, before any check). None of them changes anything a run would
 * notice:
 *
 * - the sign-in server: one exchange of a token never issued at `{identity}/protocol/openid-connect/token`;
 *   a 404 / 405 means no token endpoint there (the realm path missing), `invalid_client` a client id
 *   the realm does not know;
 * - a partner key: a mint for an e-mail address no tenant has; when that is refused with 401, a
 *   create-user call with an empty body, which a server refuses for the body (400) when the key is
 *   right and for the key (401) when it is not: nothing is minted for a real user, nothing created.
 *
 * Only what no conformant target can answer to right settings is a problem: a 5xx, or any other
 * status, is left to the rules to judge.
 */
import { randomBytes } from 'node:crypto';
import type { PartnerClient } from './clients/partner.js';
import { isTackError, TackError, errorText } from './errors.js';
import type { HttpClient } from './http.js';
import type { TargetConfig } from './target-config.js';
import { PATHS } from '../spec.js';

export interface ProbeResult {
  readonly status: 'ok' | 'problem' | 'warning';
  readonly text: string;
  /** Set on a problem: the configuration error a run stops with. */
  readonly error?: TackError;
}

const problem = (error: TackError): ProbeResult => ({ status: 'problem', text: error.message, error });

/** The sign-in server's token endpoint under TACK_IDENTITY_URL, with TACK_CLIENT_ID. */
export async function probeSignIn(http: HttpClient, target: TargetConfig): Promise<ProbeResult> {
  const url = `${target.identityUrl}${PATHS.exchange}`;
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    client_id: target.clientId,
    refresh_token: `tack-probe-never-issued-${randomBytes(8).toString('hex')}`,
  });
  try {
    const res = await http.send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      role: 'identity server',
    });
    const error = (res.json as { error?: unknown } | undefined)?.error;
    if (res.status === 400 && error === 'invalid_grant') {
      return {
        status: 'ok',
        text: `token endpoint ${url} refuses a token it never issued with 400 invalid_grant, so client id "${target.clientId}" is accepted`,
      };
    }
    if (res.status === 404 || res.status === 405) {
      return problem(
        new TackError(
          'TACK_ERR_IDENTITY',
          `no token endpoint at ${url} (${res.status}): TACK_IDENTITY_URL must be the sign-in server with its realm path ` +
            '(e.g. https://id.example.com/realms/payroll), the part before /protocol/openid-connect/token',
        ),
      );
    }
    if (error === 'invalid_client' || error === 'unauthorized_client') {
      return problem(
        new TackError(
          'TACK_ERR_IDENTITY',
          `the sign-in server at ${target.identityUrl} does not accept client id "${target.clientId}" (${res.status} ${String(error)}): ` +
            'check TACK_CLIENT_ID (default payroll-portal) and the realm path of TACK_IDENTITY_URL',
        ),
      );
    }
    const said = `${res.status}${typeof error === 'string' ? ` ${error}` : ''}`;
    return {
      status: 'warning',
      text: `token endpoint ${url} answered ${said} to a token it never issued (the spec says 400 invalid_grant); a run will tell more`,
    };
  } catch (error) {
    return transportProblem(error);
  }
}

interface PartnerKeyProbe {
  readonly client: PartnerClient;
  /** e.g. "tenant A's partner key". */
  readonly what: string;
  readonly idVar: string;
  readonly secretVar: string;
}

/** Is the partner key accepted at its host? (A mint for an unknown user, then an empty create-user call.) */
export async function probePartnerKey(probe: PartnerKeyProbe, target: TargetConfig): Promise<ProbeResult> {
  const { client, what, idVar, secretVar } = probe;
  const email = `tack-probe-${randomBytes(6).toString('hex')}@example.invalid`;
  const headers = `${target.partnerHeaders[0]} and ${target.partnerHeaders[1]}`;
  try {
    const mint = await client.mint(email);
    if (mint.res.status !== 401) {
      if (mint.res.status >= 500) {
        return { status: 'warning', text: `${what}: minting for an unknown user answered ${mint.res.status}; cannot tell whether the key is right` };
      }
      return { status: 'ok', text: `${what} accepted at ${client.baseUrl} (minting for an unknown user answered ${mint.res.status}, not 401)` };
    }
    // 401 for an unknown user may still be the user, not the key: a create-user call with an empty
    // body is refused for the body (400) when the key is right, and for the key (401) when not.
    const create = await client.createUser({});
    if (create.status >= 500) {
      return { status: 'warning', text: `${what}: a create-user call without fields answered ${create.status}; cannot tell whether the key is right` };
    }
    if (create.status !== 401) {
      return { status: 'ok', text: `${what} accepted at ${client.baseUrl} (create-user without fields answered ${create.status}, not 401)` };
    }
    return problem(
      new TackError(
        'TACK_ERR_PARTNER_KEY',
        `${what} was refused by ${client.baseUrl} (401 to a mint and to a create-user call): check ${idVar} and ${secretVar} ` +
          `(sent in the headers ${headers}; other names go in TACK_PARTNER_HEADERS)`,
      ),
    );
  } catch (error) {
    return transportProblem(error);
  }
}

function transportProblem(error: unknown): ProbeResult {
  if (isTackError(error)) return problem(error);
  return { status: 'problem', text: errorText(error) };
}
