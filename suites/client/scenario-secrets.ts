/**
 * The secrets of one scenario, each with the kind a report names it by: the API token the token
 * file held, the partner secret, and every token the server handed out in answers (access tokens,
 * rotated API tokens, partner refresh tokens, and any other member holding a secret by the
 * redactor's definition: `isSecretMember`; a URL such as discovery's `token_endpoint` is none).
 */
import { type KnownSecret, secretValuesIn } from '../../src/checks/leaks.js';
import { isExchange, requestsOf, type ScenarioEvidence } from './evidence.js';
import { accessTokenIssued, answered2xx, jsonOf, refreshTokenIssued } from '../../src/checks/observed-request.js';

/** Shorter strings are not tokens (and would be found by chance). */
const MIN_LENGTH = 8;

export function secretsOf(scenario: ScenarioEvidence): KnownSecret[] {
  const { settings } = scenario;
  const out = new Map<string, string>();
  const add = (value: string | undefined, kind: string) => {
    if (value !== undefined && value.length >= MIN_LENGTH && !out.has(value)) out.set(value, kind);
  };
  add(settings.apiToken, 'the API token of the token file');
  add(settings.partner?.secret, 'the partner secret');
  for (const request of requestsOf(scenario)) {
    add(accessTokenIssued(request), 'an access token');
    add(refreshTokenIssued(request), isExchange(request, settings) ? 'an API token (a rotated refresh_token)' : 'a partner refresh token');
    if (answered2xx(request)) for (const value of secretValuesIn(jsonOf(request.response?.body))) add(value, 'a token the server returned');
  }
  return [...out].map(([value, kind]) => ({ value, kind }));
}
