/**
 * The rule catalog: every rule of `docs/spec/tenant-api-access.md` that tack checks, with a
 * stable id, a level, the spec section and one sentence in our own words.
 *
 * This file holds words only. The reference server may name these ids (its faults say which rule
 * they break) and the suites name them (each check says which rule it judges); nothing here
 * decides behaviour, so the two stay independent implementations of the spec.
 *
 * Ids are stable: CI baselines and partners' reports refer to them. Add rules; never rename one.
 *
 * Two kinds of rule share the catalog: the server rules (every area but `client`), which `tack run`
 * judges against a target, and the client rules (area `client`, `CLIENT-*`), which `tack client`
 * judges against a partner's program from what it sends to a scripted reference server. Each
 * command takes only its own kind (`SERVER_RULES`, `CLIENT_RULES`); `tack rules` lists both.
 */

type Level = 'MUST' | 'SHOULD';
export type Area = 'partner-key' | 'sign-in' | 'api' | 'token-page' | 'client';

export interface Rule {
  readonly id: string;
  readonly level: Level;
  readonly area: Area;
  /** Spec section(s) or RFC clause the rule comes from. */
  readonly section: string;
  /** One sentence, in our own words. */
  readonly text: string;
}

/** Bump when rules are added or their words change; reports carry it. */
export const CATALOG_VERSION = '1.4.0';

const rules = [
  // ── Partner key (spec §4.1, §5, §7) ─────────────────────────────────────────────────────────
  r(
    'PARTNER-HEADERS-REQUIRED',
    'MUST',
    'partner-key',
    '§5, §7',
    'Every admin call (token, refresh, users, reset-password) that lacks either credential header is refused with 401.',
  ),
  r('PARTNER-BAD-CREDENTIALS', 'MUST', 'partner-key', '§7', 'A wrong client id or a wrong secret is refused with 401 on every admin call.'),
  r(
    'PARTNER-SECRET-EXACT',
    'MUST',
    'partner-key',
    '§5',
    'The secret is compared whole on every admin call: a prefix of it, or it with characters added, is refused with 401.',
  ),
  r(
    'PARTNER-TENANT-BINDING',
    'MUST',
    'partner-key',
    '§5, §7',
    "Another tenant's valid credentials sent to this tenant's host are refused with 401 on every admin call, refresh included.",
  ),
  r(
    'PARTNER-HEADER-NAMES',
    'MUST',
    'partner-key',
    '§5',
    'The credentials are read from the configured header names, in any letter case, and from no other names.',
  ),
  r(
    'PARTNER-MINT',
    'MUST',
    'partner-key',
    '§4.1',
    'Minting for a user of the tenant returns an access token and a refresh token; ' +
      "the access token works as a Bearer token at this tenant's host (search lists what the user reads).",
  ),
  r(
    'PARTNER-MINT-NON-MEMBER',
    'MUST',
    'partner-key',
    '§4.1, §5',
    'Minting for someone who is not a user of this tenant is refused (a 4xx) and issues no token.',
  ),
  r(
    'PARTNER-TENANT-NARROWING',
    'MUST',
    'partner-key',
    '§4.1 rule 1',
    "A token minted for a user of two tenants works at the minting tenant's host and is refused elsewhere; or no token is issued (a 4xx refusal).",
  ),
  r(
    'PARTNER-USER-PERMISSIONS',
    'MUST',
    'partner-key',
    '§5',
    "A minted token carries the user's own permissions, not the key's or an admin's: it lists only what the user may read.",
  ),
  r(
    'PARTNER-REFRESH',
    'MUST',
    'partner-key',
    '§4.1 rule 2',
    'Refreshing with the same credential headers at the same host returns an access token that works (search lists what the user reads).',
  ),
  r('PARTNER-REFRESH-NEEDS-KEY', 'MUST', 'partner-key', '§4.1 rule 2', 'A refresh token alone, without the credential headers, is refused with 401.'),
  r(
    'PARTNER-REFRESH-CROSS-TENANT',
    'MUST',
    'partner-key',
    '§4.1 rule 2',
    "Tenant A's refresh token is not redeemed at tenant B's host, even with B's valid credentials (a 4xx without a token).",
  ),
  r('PARTNER-CREATE-USER', 'MUST', 'partner-key', '§4.1', 'Creating a new user with email, firstName and lastName returns 201.'),
  r('PARTNER-CREATE-OPTIONAL', 'MUST', 'partner-key', '§2', 'The optional user fields displayName, phoneNumber and timeZone are accepted.'),
  r('PARTNER-CREATE-DUPLICATE', 'MUST', 'partner-key', '§4.1 rule 3', 'Creating a user that already exists returns 409.'),
  r('PARTNER-BAD-REQUEST', 'MUST', 'partner-key', '§7', 'A malformed JSON body, a missing required field or a field of the wrong type is refused with 400.'),
  r('PARTNER-TIMEZONE', 'SHOULD', 'partner-key', '§2', 'A timeZone that is not an IANA time zone name is refused with 400.'),
  r(
    'PARTNER-RESET-PASSWORD',
    'MUST',
    'partner-key',
    '§4.1',
    'Reset password for a user of the tenant returns an absolute http(s) action URL (a relative one fails, whatever other links the answer holds).',
  ),
  r(
    'PARTNER-PROBLEM-DETAILS',
    'MUST',
    'partner-key',
    '§7, RFC 7807',
    'Partner-key errors are problem details: application/problem+json, a JSON object body, and a status member, when present, equal to the HTTP status.',
  ),

  // ── Sign-in server and personal API token (spec §1, §2, §3, §4.2, §5, §8) ─────────────────
  r(
    'SIGNIN-EXCHANGE',
    'MUST',
    'sign-in',
    '§2, §4.2, §5',
    'Exchanging an active API token (form-encoded, the configured client_id, no client secret) ' +
      'returns 200 with access_token, expires_in 300, token_type Bearer and refresh_token.',
  ),
  r(
    'SIGNIN-ROTATION',
    'MUST',
    'sign-in',
    '§2, §3, §5',
    'Each exchange returns a new refresh_token, and that token exchanges in turn: a chain of rotations holds.',
  ),
  r(
    'SIGNIN-ROTATION-ATOMIC',
    'MUST',
    'sign-in',
    '§3',
    'Exchanges of one token sent at the same moment end as the same exchanges sent one at a time would under the policy the server ' +
      'shows for rotated-out tokens: no more of them return a token, and no more of the returned tokens stay usable.',
  ),
  r('SIGNIN-REVOKE', 'MUST', 'sign-in', '§3, §4.2', 'Revoke answers 200 with an empty body, and the revoked token is then refused with 400 invalid_grant.'),
  r('SIGNIN-GARBAGE-REJECTED', 'MUST', 'sign-in', '§3, §4.2', 'A token that was never issued is not exchanged: a 4xx without access_token.'),
  r(
    'SIGNIN-GARBAGE-INVALID-GRANT',
    'MUST',
    'sign-in',
    '§4.2, RFC 6749 §5.2',
    'A token that was never issued is refused with 400 invalid_grant, as RFC 6749 answers any invalid refresh token.',
  ),
  r('SIGNIN-CLIENT-ID', 'MUST', 'sign-in', '§2, §4.2', 'An exchange under another client_id than the configured one, or without one, issues no token (a 4xx).'),
  r(
    'SIGNIN-IDLE-EXPIRY',
    'MUST',
    'sign-in',
    '§3, §8',
    'A token left unused for 30 days is refused with 400 invalid_grant; just before that it still exchanges.',
  ),
  r('SIGNIN-IDLE-RESET', 'MUST', 'sign-in', '§3, §8', 'Each exchange restarts the 30-day unused clock.'),
  r(
    'SIGNIN-ABSOLUTE-EXPIRY',
    'MUST',
    'sign-in',
    '§3, §8',
    '90 days after generation the token is refused with 400 invalid_grant however often it was used; the limit is never extended.',
  ),
  r('SIGNIN-DISABLED-USER', 'MUST', 'sign-in', '§3, §4.2', "Once the token's user is disabled, exchange is refused with 400 invalid_grant."),
  r(
    'SIGNIN-LIFECYCLE',
    'MUST',
    'sign-in',
    '§3, §8',
    'Any sequence of exchanges, clock moves, revocations, disabling and API calls agrees with the token lifecycle table.',
  ),
  r(
    'SIGNIN-NO-CORS',
    'MUST',
    'sign-in',
    '§4.2',
    'A page of another site can neither exchange nor read: a cross-origin request to the sign-in server ' +
      'carries no Access-Control-Allow-Origin for that origin (preflights are observed, not judged).',
  ),
  r('SIGNIN-NO-STORE', 'SHOULD', 'sign-in', 'RFC 6749 §5.1', 'Token responses carry Cache-Control: no-store.'),
  r('SIGNIN-FEATURE-GATE', 'MUST', 'sign-in', '§1', "Where the tenant's API-token feature is off, no API token can be generated."),
  r('SIGNIN-DIRECT-ONLY', 'MUST', 'sign-in', '§1', "A user of a partner's embedded app cannot generate an API token."),

  // ── Access tokens and business search (spec §3, §4.3, §7, §8) ─────────────────────────────
  r(
    'ACCESS-TOKEN-LIFETIME',
    'MUST',
    'api',
    '§3, §8',
    'An access token from the sign-in server works for 300 seconds (search lists what its user reads) ' +
      'and is refused with 401 after; judged at ± TACK_ACCESS_TOLERANCE_S.',
  ),
  r('ACCESS-TOKEN-REQUIRED', 'MUST', 'api', '§4.3, §7', 'Business search without an access token, or with one that was never issued, is refused with 401.'),
  r('ACCESS-WWW-AUTHENTICATE', 'SHOULD', 'api', 'RFC 6750 §3', 'A 401 from the API carries a WWW-Authenticate challenge for the Bearer scheme.'),
  r(
    'SEARCH-SHAPE',
    'MUST',
    'api',
    '§2, §4.3',
    'Every search answer, whoever holds the token, is JSON with items (id, name, registrationNumber), pageIndex, pageSize (at least 1) and ' +
      'totalCount; on every page no more items than pageSize, totalCount counts every match, and paging through lists each match once.',
  ),
  r('SEARCH-ONLY-READABLE', 'MUST', 'api', '§4.3', 'Search lists, on every page, only businesses the caller may read.'),
  r('SEARCH-PERMISSION-REMOVAL', 'MUST', 'api', '§4.3', 'A permission removed from the user is gone on the very next request, with the same access token.'),
  r('SEARCH-NON-MEMBER', 'MUST', 'api', '§7', 'A caller who is not a member of the tenant of the host called is refused with 403.'),
  r('SEARCH-TENANT-FROM-HOST', 'MUST', 'api', '§4.3', "The tenant is the host called: each tenant host lists only that tenant's businesses."),

  // ── Server errors and tenant scope, over every endpoint (spec §4, §5, §7) ─────────────────────
  r(
    'PARTNER-NO-SERVER-ERROR',
    'MUST',
    'partner-key',
    '§4.1, §7',
    'No partner-key call tack sends, well-formed or malformed (another Content-Type, a body where none is expected, a refresh token never issued), ' +
      'is answered 5xx; and a malformed call with valid credentials is not answered 401 (a credentials status).',
  ),
  r(
    'PARTNER-RESET-TENANT-SCOPE',
    'SHOULD',
    'partner-key',
    '§4.1, §5',
    "Reset password for an e-mail that is not a user of the tenant (unknown, or another tenant's user) returns no action URL.",
  ),
  r(
    'SIGNIN-NO-SERVER-ERROR',
    'SHOULD',
    'sign-in',
    '§4.2, RFC 6749 §5.2',
    'No call tack sends to the token or revoke endpoint, well-formed or malformed (no grant_type, an unsupported one, no token, another body type), ' +
      'is answered 5xx.',
  ),
  r(
    'SEARCH-NO-SERVER-ERROR',
    'SHOULD',
    'api',
    '§4.3, §7',
    'No business search tack sends, well-formed or malformed (paging parameters that are not numbers or out of range, a malformed Authorization header), ' +
      'is answered 5xx.',
  ),

  // ── The token page, seen in a browser (spec §1, §3, §5, §7, §8) ────────────────────────────
  r(
    'TOKEN-PAGE-REAUTH',
    'MUST',
    'token-page',
    '§1, §5',
    'A token is generated only after the user types their password again, on a re-authentication page that shows who is signed in.',
  ),
  r(
    'TOKEN-PAGE-OWNER',
    'MUST',
    'token-page',
    '§5',
    "The generated token is the signed-in user's: it exchanges, and its access token lists that user's businesses.",
  ),
  r('TOKEN-PAGE-SHOWN-ONCE', 'MUST', 'token-page', '§3', 'Reloading the page does not show the token again.'),
  r('TOKEN-PAGE-MASKED', 'MUST', 'token-page', '§3', "The token's full value is not part of the page's visible text."),
  r('TOKEN-PAGE-COUNTDOWN', 'MUST', 'token-page', '§3, §8', 'A countdown next to the token starts at 2:00 and goes down.'),
  r(
    'TOKEN-PAGE-CLEARED',
    'MUST',
    'token-page',
    '§3, §7, §8',
    'When the countdown reaches 0:00 the token is removed from the page and the exact cleared notice appears.',
  ),
  r('TOKEN-PAGE-STAYS-VALID', 'MUST', 'token-page', '§3', 'A token that the page has cleared from the screen still exchanges.'),
  r('TOKEN-PAGE-COPY', 'MUST', 'token-page', '§7', 'The copy control puts the token, exactly and whole, on the clipboard.'),
  r('TOKEN-PAGE-COPY-BLOCKED', 'MUST', 'token-page', '§7', 'When the clipboard refuses the write, the page shows the exact copy-failure message.'),
  r('TOKEN-PAGE-SIGNIN-UNREACHABLE', 'MUST', 'token-page', '§7', 'When the sign-in page cannot be reached, the page shows the exact could-not-start message.'),
  r('TOKEN-PAGE-CANCELLED', 'MUST', 'token-page', '§7', 'When the sign-in is left without completing it, the page shows the exact cancelled message.'),
  r(
    'TOKEN-PAGE-NO-TOKEN',
    'MUST',
    'token-page',
    '§7',
    'When the sign-in completes but no token comes back, the page shows the exact could-not-generate message.',
  ),
  r(
    'TOKEN-PAGE-FEATURE-OFF',
    'MUST',
    'token-page',
    '§1, §7',
    "Where the tenant's API-token feature is off, opening the page redirects to the account details page.",
  ),
  r('TOKEN-PAGE-NO-LIST', 'MUST', 'token-page', '§5', 'The page lists no tokens and offers no control to revoke one.'),

  // ── A partner's client, judged by tack client (spec §2, §4, §5, §7) ─────────────────────────
  r(
    'CLIENT-EXCHANGE-FORM',
    'MUST',
    'client',
    '§2, §4.2, §5.2',
    'Every exchange is a form-encoded POST to {identity}/protocol/openid-connect/token with grant_type=refresh_token, ' +
      'client_id=payroll-portal and the stored API token as refresh_token.',
  ),
  r(
    'CLIENT-NO-SECRET',
    'MUST',
    'client',
    '§2, §5.2',
    'An exchange carries no client secret: no client_secret or client_assertion field and no Authorization header.',
  ),
  r(
    'CLIENT-BEARER',
    'MUST',
    'client',
    '§4.3, §5.3',
    'Every API call carries Authorization: Bearer with an access token the server issued (not the API token, not nothing).',
  ),
  r(
    'CLIENT-RETRY-ONCE-ON-401',
    'MUST',
    'client',
    '§5.4, §7',
    'When the API answers 401, the client gets a new access token once (exchange, partner refresh or mint) ' +
      'and repeats the call once with it; a second 401 ends the work.',
  ),
  r(
    'CLIENT-STORES-ROTATED-TOKEN',
    'MUST',
    'client',
    '§2, §5.4',
    'Every exchange sends the newest API token: the stored one first, then always the refresh_token of the previous exchange, ' +
      'in the same run and in the next one.',
  ),
  r(
    'CLIENT-REUSE-ACCESS-TOKEN',
    'SHOULD',
    'client',
    '§5.4, §8',
    'One access token serves every API call of a run while it is valid: no new exchange or mint between calls unless a 401 came or it was near expiry.',
  ),
  r(
    'CLIENT-STOPS-ON-INVALID-GRANT',
    'MUST',
    'client',
    '§4.2, §7',
    'After an exchange answered 400 invalid_grant the client does not exchange again: the token is dead and only a person can generate a new one.',
  ),
  r('CLIENT-NO-403-LOOP', 'MUST', 'client', '§7', 'A 403 from the API is not treated like a 401: no new exchange or mint and no repeated call after it.'),
  r(
    'CLIENT-SECRETS-NOT-LOGGED',
    'MUST',
    'client',
    '§5, §5.6',
    "No API token, access token, partner refresh token or partner secret appears in the client's stdout or stderr, " +
      'in any common form: raw, URL-, form- or JSON-encoded, base64, base64url, base32, hex in either case, or cut across lines.',
  ),
  r(
    'CLIENT-NO-TOKEN-IN-URL',
    'MUST',
    'client',
    '§4.3, §5',
    'No request URL (path or query) carries a token or the partner secret: they travel in headers and bodies only (RFC 6750 §2.3).',
  ),
  r(
    'CLIENT-PARTNER-HEADERS',
    'MUST',
    'client',
    '§5',
    'Every admin call carries both credential headers, under the configured names, with the client id in the first and the secret in the second.',
  ),
  r(
    'CLIENT-PARTNER-JSON',
    'MUST',
    'client',
    '§2, §4.1',
    'Mint and refresh are JSON POSTs (Content-Type application/json): username is the user to act for, refreshToken the newest partner refresh token.',
  ),
  r(
    'CLIENT-REFRESH-SAME-HOST',
    'MUST',
    'client',
    '§4.1 rule 2',
    'A partner refresh token is redeemed only at the refresh endpoint of the tenant host that minted it, never at another host or at the sign-in server.',
  ),
  r(
    'CLIENT-EXIT-STATUS',
    'MUST',
    'client',
    'contract',
    'Each run exits non-zero when its work failed (its business search never succeeded), and 0 when it succeeded and nothing failed after; ' +
      'after a failure past a successful search either is accepted (the client-under-test contract).',
  ),

  // ── A partner's client: the work done where the service is healthy, the token kept, SHOULDs ──
  r(
    'CLIENT-COMPLETES-WORK',
    'MUST',
    'client',
    'contract',
    'Where the service answers as it should (the happy path, both runs of two-runs, the 401-once retry, several calls, the run after a failed one), ' +
      'every run completes its business search and ends by itself; when it does not, another broken rule names the cause or this one fails.',
  ),
  r(
    'CLIENT-KEEPS-API-TOKEN',
    'MUST',
    'client',
    '§3, §5.4',
    'The client never revokes or otherwise destroys the API token it keeps: after any run, failed or not, the token it kept still exchanges ' +
      'in the next run (a user must not have to generate a new token each time).',
  ),
  r(
    'CLIENT-NO-ORIGIN',
    'SHOULD',
    'client',
    '§4.2',
    'Calls to the sign-in server carry no Origin header: the client is a script, server or desktop tool, not a web page of another site.',
  ),
  r(
    'CLIENT-PARTNER-KEY-ADMIN-ONLY',
    'SHOULD',
    'client',
    '§5',
    'The partner key (its two headers, its secret anywhere in a header) goes only with admin calls: never with business search or another API call, ' +
      'never to the sign-in server.',
  ),
  r(
    'CLIENT-TOKEN-FILE-SAFE',
    'SHOULD',
    'client',
    '§5.4, §5.6',
    'When the client keeps the API token in the token file, it replaces the file whole (a new file renamed over it, never rewritten in place) ' +
      'and leaves it readable by its owner only (mode 0600 or stricter).',
  ),
] as const satisfies readonly Rule[];

function r<const I extends string>(id: I, level: Level, area: Area, section: string, text: string) {
  return { id, level, area, section, text } as const;
}

export type RuleId = (typeof rules)[number]['id'];

/** Every rule of the catalog, both kinds (`tack rules`). */
export const RULES: readonly Rule[] = rules;

/** The rules `tack run` judges against a target: every area but `client`. */
export const SERVER_RULES: readonly Rule[] = RULES.filter((rule) => rule.area !== 'client');

/** The rules `tack client` judges against a partner's program. */
export const CLIENT_RULES: readonly Rule[] = RULES.filter((rule) => rule.area === 'client');

const byId = new Map<string, Rule>(RULES.map((rule) => [rule.id, rule]));

export function getRule(id: string): Rule | undefined {
  return byId.get(id);
}

export function isRuleId(id: string): id is RuleId {
  return byId.has(id);
}

/** A rule judged by `tack client`, not by `tack run`. */
export function isClientRule(id: string): boolean {
  return byId.get(id)?.area === 'client';
}

export const AREAS: Readonly<Record<Area, string>> = {
  'partner-key': 'Partner key (§4.1, §5)',
  'sign-in': 'Sign-in server and API token (§3, §4.2)',
  api: 'Access tokens and business search (§4.3)',
  'token-page': 'Token page (§1, §3, §5, §7, §8)',
  client: 'Client under test (§2, §4, §5, §7)',
};
