/**
 * Named faults: small, deliberate deviations from the spec that the reference server can be
 * started with (`tack serve --fault NAME`). Each names the catalog rule(s) it breaks, so tack's own
 * suite can prove that every check fails against a server that breaks its rule, and a user can see
 * what a failing report looks like.
 *
 * A fault is not a second server: each one is a single conditional, read from the set at the step
 * it concerns (`ctx.faults.has('duplicate-user-accepted')`).
 */
import type { RuleId } from '../rules/catalog.js';

export interface FaultInfo {
  readonly name: string;
  /**
   * The rules it breaks: with this fault and nothing else, a full run must report exactly these as
   * failed (or warning, for a SHOULD) and every other rule as it does without the fault.
   */
  readonly rules: readonly RuleId[];
  readonly description: string;
  /**
   * A conformant variant, not a fault: an answer the spec allows that differs from the reference's
   * own (e.g. what a certified OpenID provider does). It breaks no rule; every rule must pass.
   */
  readonly conformant?: true;
  /**
   * Rules that may also fail, or become unverifiable, under this fault, each with the reason: the
   * fault matrix accepts any outcome for these, and demands the run's own outcome for every rule
   * named nowhere.
   */
  readonly collateral?: readonly Collateral[];
  /**
   * The store answers after this many milliseconds unless `tack serve --store-delay-ms` (or
   * `ReferenceOptions.storeDelayMs`) says otherwise: the window a race needs to open, or the one a
   * variant shows it keeps closed.
   */
  readonly storeDelayMs?: number;
}

/** The store's delay the race faults and variants bring when none is set: enough for exchanges sent together to overlap. */
const RACE_STORE_DELAY_MS = 3;

interface Collateral {
  readonly rules: readonly RuleId[];
  readonly why: string;
}

/** The lifecycle property calls the API among its commands: whether a seed meets the fault there depends on the commands drawn. */
const LIFECYCLE_MAY_MEET_IT: Collateral = {
  rules: ['SIGNIN-LIFECYCLE'],
  why: 'the lifecycle property may meet a wrong access-token lifetime among its API calls, depending on the seed',
};

const faults = [
  // ── Partner key ─────────────────────────────────────────────────────────────────────────────
  fault(
    'missing-partner-headers-accepted',
    ['PARTNER-HEADERS-REQUIRED', 'PARTNER-HEADER-NAMES', 'PARTNER-REFRESH-NEEDS-KEY'],
    "An admin call without the credential headers is served as if the host tenant's key had been sent.",
  ),
  fault('partner-secret-ignored', ['PARTNER-BAD-CREDENTIALS', 'PARTNER-SECRET-EXACT'], 'Only the client id is checked; any secret is accepted.'),
  fault(
    'partner-secret-prefix-match',
    ['PARTNER-SECRET-EXACT'],
    'The secret is compared with startsWith in both directions: a prefix, or the secret with characters added, is accepted.',
  ),
  fault('partner-other-tenant-key-accepted', ['PARTNER-TENANT-BINDING'], "Any tenant's valid key is accepted at any tenant host (no tenant binding)."),
  fault(
    'partner-key-checked-on-mint-only',
    [
      'PARTNER-HEADERS-REQUIRED',
      'PARTNER-BAD-CREDENTIALS',
      'PARTNER-SECRET-EXACT',
      'PARTNER-TENANT-BINDING',
      'PARTNER-HEADER-NAMES',
      'PARTNER-REFRESH-NEEDS-KEY',
    ],
    'The partner key is checked on the token call only: refresh, user creation and reset-password serve the host tenant whatever the headers say.',
  ),
  fault(
    'partner-refresh-any-tenant-key',
    ['PARTNER-TENANT-BINDING'],
    "The refresh call accepts any tenant's valid key (a refresh token of the host's tenant is redeemed with another tenant's key).",
  ),
  fault(
    'partner-header-names-case-sensitive',
    ['PARTNER-HEADER-NAMES'],
    'The credential headers are found only when sent in exactly the configured letter case.',
  ),
  fault(
    'partner-header-any-name',
    ['PARTNER-HEADER-NAMES'],
    'The credentials are accepted under any header name: the server scans every header value for the client id and the secret.',
  ),
  fault('partner-mint-omits-refresh-token', ['PARTNER-MINT'], 'The mint response carries the access token but no refresh token.', [
    {
      rules: [
        'PARTNER-REFRESH',
        'PARTNER-REFRESH-NEEDS-KEY',
        'PARTNER-REFRESH-CROSS-TENANT',
        'PARTNER-PROBLEM-DETAILS',
        'PARTNER-HEADERS-REQUIRED',
        'PARTNER-BAD-CREDENTIALS',
        'PARTNER-SECRET-EXACT',
        'PARTNER-TENANT-BINDING',
      ],
      why: 'without a refresh token the refresh call cannot be exercised: those checks stop (error) or are not verified (skipped)',
    },
  ]),
  fault('partner-mint-non-member', ['PARTNER-MINT-NON-MEMBER'], 'Tokens are minted for any e-mail address, member of the tenant or not.'),
  fault(
    'partner-token-forbidden',
    ['PARTNER-MINT', 'PARTNER-REFRESH', 'PARTNER-TENANT-NARROWING', 'PARTNER-USER-PERMISSIONS', 'SEARCH-PERMISSION-REMOVAL'],
    'Partner-minted access tokens are accepted as authentic but every search with one answers 403: they never give their user anything.',
    [
      {
        rules: ['SEARCH-SHAPE'],
        why: 'with partner keys only, every search tack makes uses a partner-minted token: no search result is left to judge the shape of (skipped)',
      },
    ],
  ),
  fault(
    'partner-narrowing-fails-500',
    ['PARTNER-TENANT-NARROWING', 'PARTNER-NO-SERVER-ERROR'],
    'Minting for a user of several tenants answers 500 instead of a token narrowed to the tenant (or a 4xx refusal).',
  ),
  fault(
    'partner-token-not-narrowed',
    ['PARTNER-TENANT-NARROWING'],
    'Partner-minted access tokens are not tied to the minting tenant: they work at every tenant host the user belongs to.',
  ),
  fault(
    'partner-token-admin-permissions',
    ['PARTNER-USER-PERMISSIONS', 'SEARCH-PERMISSION-REMOVAL'],
    "Partner-minted access tokens carry admin permissions: search lists every business of the tenant, not only the user's.",
  ),
  fault('partner-refresh-issues-expired-token', ['PARTNER-REFRESH'], 'The refresh call answers 200, but the access token it returns is already expired.'),
  fault(
    'partner-refresh-without-headers',
    ['PARTNER-REFRESH-NEEDS-KEY', 'PARTNER-HEADERS-REQUIRED'],
    'The refresh call accepts a refresh token alone, without the credential headers.',
  ),
  fault(
    'partner-refresh-cross-tenant',
    ['PARTNER-REFRESH-CROSS-TENANT'],
    "A refresh token is redeemed at any tenant host whose own key is sent (tenant A's token at tenant B).",
  ),
  fault('create-user-returns-200', ['PARTNER-CREATE-USER'], 'Creating a user answers 200 instead of 201 Created.'),
  fault('create-user-rejects-optional-fields', ['PARTNER-CREATE-OPTIONAL'], 'Creating a user with displayName, phoneNumber or timeZone is refused with 400.'),
  fault('duplicate-user-accepted', ['PARTNER-CREATE-DUPLICATE'], 'Creating a user that is already a member answers 201 again instead of 409.'),
  fault(
    'create-user-fields-unchecked',
    ['PARTNER-BAD-REQUEST', 'PARTNER-TIMEZONE'],
    'Missing required fields and fields of the wrong type are accepted (blanks are filled in), the time zone unchecked.',
  ),
  fault('timezone-not-validated', ['PARTNER-TIMEZONE'], 'Any string is accepted as timeZone, IANA name or not.'),
  fault(
    'reset-url-relative',
    ['PARTNER-RESET-PASSWORD'],
    'Reset password returns a relative action URL (/account/reset-password?...) instead of an absolute one.',
  ),
  fault(
    'reset-url-relative-beside-link',
    ['PARTNER-RESET-PASSWORD'],
    'Reset password returns a relative action URL, and beside it an absolute link to a help page.',
  ),
  fault(
    'reset-url-self-link-only',
    ['PARTNER-RESET-PASSWORD'],
    "Reset password answers 200 with no action URL, only a HAL self link to the call's own address (_links.self.href).",
  ),
  fault(
    'reset-url-user-link-only',
    ['PARTNER-RESET-PASSWORD'],
    'Reset password answers 200 with no action URL, only {"user": <the API address of the user resource>}.',
  ),
  fault(
    'reset-url-hal-user-link-only',
    ['PARTNER-RESET-PASSWORD'],
    'Reset password answers 200 with no action URL, only HAL links: self and user (_links.user.href, the user resource).',
  ),
  fault(
    'reset-url-help-link-only',
    ['PARTNER-RESET-PASSWORD'],
    'Reset password answers 200 with no action URL, only {"status":"queued","help":<a documentation page>}.',
  ),
  fault(
    'reset-url-schema-link-only',
    ['PARTNER-RESET-PASSWORD'],
    'Reset password answers 200 with no action URL, only {"$schema":<a JSON schema URL>,"message":"reset e-mail sent"}.',
  ),
  variant(
    'reset-url-hal-reset-link',
    'Conformant: reset password answers HAL links only: self, user (the user resource) and reset, the action URL (_links.reset.href).',
  ),
  fault('errors-as-plain-json', ['PARTNER-PROBLEM-DETAILS'], 'Problem bodies are sent as application/json instead of application/problem+json.'),
  fault('problem-status-mismatch', ['PARTNER-PROBLEM-DETAILS'], 'The status member of problem bodies is always 500, whatever the HTTP status.'),
  fault('problem-body-not-json', ['PARTNER-PROBLEM-DETAILS'], 'Errors are labelled application/problem+json but their body is plain text.'),

  // ── Sign-in server and personal API token ──────────────────────────────────────────────────
  fault('exchange-expires-in-string', ['SIGNIN-EXCHANGE'], 'The exchange returns expires_in as the string "300" instead of the integer 300.'),
  fault('exchange-token-type-wrong', ['SIGNIN-EXCHANGE'], 'The exchange returns token_type "JWT" instead of "Bearer".'),
  fault('exchange-omits-refresh-token', ['SIGNIN-EXCHANGE', 'SIGNIN-ROTATION'], 'The exchange answer has no refresh_token.', [
    {
      rules: [
        'SIGNIN-REVOKE',
        'SIGNIN-CLIENT-ID',
        'SIGNIN-IDLE-EXPIRY',
        'SIGNIN-IDLE-RESET',
        'SIGNIN-ABSOLUTE-EXPIRY',
        'SIGNIN-DISABLED-USER',
        'SIGNIN-LIFECYCLE',
        'ACCESS-TOKEN-LIFETIME',
        'SIGNIN-ROTATION-ATOMIC',
      ],
      why: 'every check that exchanges a token twice needs the replacement token the answer lacks',
    },
  ]),
  fault('rotation-same-token', ['SIGNIN-ROTATION', 'SIGNIN-LIFECYCLE'], 'The exchange returns the same refresh token instead of a new one.'),
  fault(
    'rotation-unsafe-under-concurrency',
    ['SIGNIN-ROTATION'],
    'The exchange passes the grant through one shared slot across an await: sequential use works, ' +
      "concurrent exchanges on different chains rotate each other's tokens and get invalid_grant.",
  ),
  raced(
    fault(
      'rotation-forks-under-overlap',
      ['SIGNIN-ROTATION-ATOMIC'],
      `Rotation reads the token, waits for the store (${RACE_STORE_DELAY_MS} ms unless --store-delay-ms is set), then writes without looking ` +
        'again: exchanges of one token that overlap all succeed, and every token they return stays live (the chain forks).',
    ),
  ),
  raced(
    fault(
      'reuse-detection-bypassed-by-overlap',
      ['SIGNIN-ROTATION-ATOMIC'],
      'Presenting the token just rotated out ends the chain (as rotation-reuse-ends-chain does), but that is decided on a read made before ' +
        `the store's wait (${RACE_STORE_DELAY_MS} ms unless --store-delay-ms is set): exchanges of one token that overlap all pass it and all ` +
        'succeed, and the chain forks.',
    ),
  ),
  raced(
    fault(
      'rotation-forks-rotated-tokens-only',
      ['SIGNIN-ROTATION-ATOMIC'],
      'As rotation-forks-under-overlap, but only for tokens of a chain rotated at least once: overlapping exchanges of a fresh token take turns.',
    ),
  ),
  raced(
    fault(
      'rotation-forks-two-overlapping-only',
      ['SIGNIN-ROTATION-ATOMIC'],
      'As rotation-forks-under-overlap, but only when exactly two exchanges of one token overlap; three or more take turns.',
    ),
  ),
  raced(
    fault(
      'rotation-coalesces-keeps-presented',
      ['SIGNIN-ROTATION-ATOMIC'],
      'Rotated-out tokens are refused (as with strict rotation), but overlapping exchanges of one token all get one same new token, written ' +
        'beside the chain: the presented token stays live (one at a time, it rotates).',
    ),
  ),
  raced(
    variant(
      'rotation-locked-per-token',
      'Conformant: rotation reads, waits for the store and writes, as in rotation-forks-under-overlap, under a lock per presented token: ' +
        'exchanges of one token that overlap take turns.',
    ),
  ),
  raced(
    variant(
      'rotation-reuse-once',
      'Conformant (Keycloak\'s "Refresh Token Max Reuse" 1): the token just rotated out exchanges once more, and the token that second ' +
        'exchange replaces stays live beside the new one; after that it is refused.',
    ),
  ),
  raced(
    variant(
      'rotation-reuse-ends-chain',
      'Conformant (Keycloak-style reuse detection): the token just rotated out, presented again, is refused with invalid_grant and ends ' + 'the whole chain.',
    ),
  ),
  fault('revoke-no-op', ['SIGNIN-REVOKE', 'SIGNIN-LIFECYCLE'], 'Revoke answers 200 but the token keeps working.'),
  fault('revoke-answers-with-body', ['SIGNIN-REVOKE', 'SIGNIN-LIFECYCLE'], 'Revoke answers 200 with a JSON body instead of an empty one.'),
  fault(
    'garbage-token-exchanges',
    ['SIGNIN-GARBAGE-REJECTED', 'SIGNIN-GARBAGE-INVALID-GRANT'],
    'A token that was never issued is exchanged (for the first seeded user).',
  ),
  fault(
    'garbage-token-unauthorized',
    ['SIGNIN-GARBAGE-INVALID-GRANT'],
    'A token that was never issued is refused with 401 invalid_token instead of 400 invalid_grant.',
  ),
  fault('exchange-ignores-client-id', ['SIGNIN-CLIENT-ID'], 'The exchange accepts any client_id, or none.'),
  fault('idle-limit-31-days', ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-LIFECYCLE'], 'The unused limit is 31 days instead of 30.'),
  fault(
    'idle-limit-29-days',
    ['SIGNIN-IDLE-EXPIRY', 'SIGNIN-LIFECYCLE'],
    'The unused limit is 29 days instead of 30: a token used just before day 30 is refused.',
  ),
  fault(
    'absolute-limit-89-days',
    ['SIGNIN-ABSOLUTE-EXPIRY', 'SIGNIN-LIFECYCLE'],
    'The absolute limit is 89 days instead of 90: a token used just before day 90 is refused.',
  ),
  fault(
    'idle-limit-not-reset',
    ['SIGNIN-IDLE-RESET', 'SIGNIN-LIFECYCLE'],
    'An exchange does not restart the 30-day unused clock: it keeps counting from generation.',
  ),
  fault(
    'absolute-limit-sliding',
    ['SIGNIN-ABSOLUTE-EXPIRY', 'SIGNIN-LIFECYCLE'],
    'The 90-day limit counts from the last rotation instead of from generation, so use extends it.',
  ),
  fault('disabled-user-exchanges', ['SIGNIN-DISABLED-USER', 'SIGNIN-LIFECYCLE'], "A disabled user's API token still exchanges."),
  fault('cors-open', ['SIGNIN-NO-CORS'], 'The sign-in server answers Access-Control-Allow-Origin: * and grants preflight requests.'),
  fault('cors-on-success-only', ['SIGNIN-NO-CORS'], "A successful exchange answers Access-Control-Allow-Origin with the caller's origin; errors carry none."),
  variant(
    'cors-preflight-granted-request-refused',
    'Conformant (as oidc-provider does): a preflight is answered 204 with Access-Control-Allow-Origin, ' +
      'but the cross-origin request itself is refused with 400 invalid_request and no Access-Control-Allow-Origin.',
  ),
  fault('no-cache-control', ['SIGNIN-NO-STORE'], 'Token responses carry no Cache-Control: no-store.'),
  fault('feature-flag-ignored', ['SIGNIN-FEATURE-GATE'], "API tokens are generated even where the tenant's API-token feature is off."),
  fault('embedded-user-gets-token', ['SIGNIN-DIRECT-ONLY'], "A user of a partner's embedded app can generate an API token."),

  // ── Access tokens and business search ──────────────────────────────────────────────────────
  fault('access-token-lives-an-hour', ['ACCESS-TOKEN-LIFETIME'], 'Access tokens are accepted for 3600 seconds, although expires_in still says 300.', [
    LIFECYCLE_MAY_MEET_IT,
  ]),
  fault('access-token-lives-200-seconds', ['ACCESS-TOKEN-LIFETIME'], 'Access tokens are refused after 200 seconds, although expires_in says 300.', [
    LIFECYCLE_MAY_MEET_IT,
  ]),
  fault(
    'access-token-lives-320-seconds',
    ['ACCESS-TOKEN-LIFETIME'],
    'Access tokens are accepted for 320 seconds (7 % too long): caught even at the largest access-token tolerance.',
    [LIFECYCLE_MAY_MEET_IT],
  ),
  fault(
    'access-token-not-required',
    ['ACCESS-TOKEN-REQUIRED'],
    'Business search without a token, or with a token that was never issued, answers 200 with an empty list.',
    [
      {
        rules: ['ACCESS-WWW-AUTHENTICATE'],
        why: 'with no 401 left to carry a challenge, the challenge is judged only where an expired token is seen (hook clock)',
      },
    ],
  ),
  fault('no-www-authenticate', ['ACCESS-WWW-AUTHENTICATE'], 'API 401 responses carry no WWW-Authenticate header.'),
  fault('search-omits-total-count', ['SEARCH-SHAPE'], 'The search result has no totalCount.', [
    {
      rules: [
        'PARTNER-USER-PERMISSIONS',
        'SEARCH-ONLY-READABLE',
        'SEARCH-PERMISSION-REMOVAL',
        'SEARCH-TENANT-FROM-HOST',
        'PARTNER-MINT',
        'PARTNER-REFRESH',
        'PARTNER-TENANT-NARROWING',
        'ACCESS-TOKEN-LIFETIME',
        'SEARCH-NON-MEMBER',
        'TOKEN-PAGE-OWNER',
      ],
      why: 'without totalCount tack cannot tell whether more pages exist, so "listed" and "not listed" are not verified (skipped)',
    },
  ]),
  fault('search-ignores-page-size', ['SEARCH-SHAPE'], 'Search returns every match on one page, while pageSize says the size asked for.'),
  fault('search-lists-unreadable', ['SEARCH-ONLY-READABLE'], 'Search lists every business of the tenant, including those the caller may not read.', [
    {
      rules: ['PARTNER-USER-PERMISSIONS', 'SEARCH-PERMISSION-REMOVAL'],
      why: 'with the hook, those rules also look for a business the user may not read, which this server lists to everyone',
    },
  ]),
  fault(
    'search-leaks-on-later-pages',
    ['SEARCH-ONLY-READABLE'],
    "The first page holds only readable businesses; from the second page on, the tenant's unreadable ones are listed too.",
    [{ rules: ['PARTNER-USER-PERMISSIONS', 'SEARCH-PERMISSION-REMOVAL'], why: 'every search read to its last page meets the leaked businesses' }],
  ),
  fault(
    'permission-cached-per-token',
    ['SEARCH-PERMISSION-REMOVAL'],
    'The readable businesses are computed once per access token and cached, so a removed permission stays until the token expires.',
    [
      {
        rules: ['SEARCH-ONLY-READABLE', 'SEARCH-SHAPE', 'SEARCH-TENANT-FROM-HOST'],
        why: 'a cached answer also misses access granted later, and is served at every host the token is sent to',
      },
    ],
  ),
  fault('search-non-member-allowed', ['SEARCH-NON-MEMBER'], 'A caller who is not a member of the host tenant gets 200 instead of 403.'),
  fault(
    'search-ignores-host-tenant',
    ['SEARCH-TENANT-FROM-HOST'],
    "Search ignores the host: it lists the caller's readable businesses of every tenant the caller belongs to.",
  ),

  // ── Paging, shapes, types, time zones, server errors ─────────────────────────────────────────
  fault(
    'search-pages-overlap',
    ['SEARCH-SHAPE'],
    'Each page after the first starts one item early (an off-by-one offset): the last match of a page comes back first on the next one.',
  ),
  fault(
    'search-offset-is-page-index',
    ['SEARCH-SHAPE', 'SEARCH-ONLY-READABLE'],
    'A page starts at its index, not index × pageSize (each page is the previous one moved on by one item), and the newest business of the ' +
      "tenant the caller may not read is listed after the caller's own: read until totalCount items with the repeats counted, it is never reached.",
    [
      {
        rules: ['PARTNER-USER-PERMISSIONS', 'SEARCH-PERMISSION-REMOVAL', 'SEARCH-TENANT-FROM-HOST'],
        why: 'every search read to its last page meets the business listed to everyone',
      },
    ],
  ),
  fault(
    'search-pages-start-late',
    ['SEARCH-SHAPE'],
    'Each page after the first starts one item late (offset index × pageSize + 1): a match is skipped at every page boundary, and the ' +
      'page after the last is empty although totalCount says more.',
    [{ rules: ['SEARCH-ONLY-READABLE'], why: 'its crowd is read on small pages: a match skipped at a page boundary leaves "listed" unverified' }],
  ),
  fault(
    'partner-search-page-index-string',
    ['SEARCH-SHAPE'],
    'Searches with a partner-minted access token answer pageIndex as a string ("0"); searches with a personal token are right.',
  ),
  fault(
    'search-total-varies-by-page',
    ['SEARCH-SHAPE'],
    'The first page says the right totalCount; every page after it says one less (the items still page right).',
  ),
  fault('search-page-index-constant', ['SEARCH-SHAPE'], 'Every page answers the first pageIndex (0 by default), whatever page it holds; the items page right.'),
  fault(
    'optional-field-types-unchecked',
    ['PARTNER-BAD-REQUEST'],
    'An optional member of a user (displayName, phoneNumber, timeZone) of another type than string, such as "displayName": 42, is dropped ' +
      'and the user created with 201, instead of a 400.',
  ),
  fault(
    'timezone-runtime-list-only',
    ['PARTNER-CREATE-OPTIONAL'],
    "timeZone is checked against one runtime's list of canonical names (Node's Intl.supportedValuesOf): valid IANA names outside it, " +
      'Asia/Kolkata, UTC, Etc/UTC, Europe/Kyiv, are refused with 400.',
  ),
  fault(
    'reset-url-for-non-members',
    ['PARTNER-RESET-TENANT-SCOPE'],
    "Reset password answers 200 with an action URL for any e-mail address: one no tenant knows, or another tenant's user.",
  ),
  fault(
    'partner-refresh-unknown-token-500',
    ['PARTNER-NO-SERVER-ERROR'],
    'The partner refresh call answers 500 to a refresh token it never issued (instead of refusing it with a 4xx).',
  ),
  fault(
    'partner-content-type-401',
    ['PARTNER-NO-SERVER-ERROR'],
    'A partner-key call with the valid key and a body that is not application/json is answered 401, a credentials status for a body problem.',
  ),
  fault(
    'exchange-grant-type-500',
    ['SIGNIN-NO-SERVER-ERROR'],
    'An exchange without grant_type, or with one the server does not support, is answered 500 instead of 400.',
  ),
  fault(
    'search-bad-paging-500',
    ['SEARCH-NO-SERVER-ERROR'],
    'A search whose paging parameters are not numbers, or out of range, is answered 500 instead of 400.',
  ),
  // ── 503 with and without Retry-After; conformant readings of what the spec leaves open ──────
  variant(
    'gateway-503-retry-after',
    'Conformant: a rate-limiting gateway answers the first call of the partner token, sign-in token and business search endpoints ' +
      '503 with Retry-After (1 s, 0 s, 0 s); the call sent again is served.',
  ),
  fault(
    'partner-refresh-unknown-token-503',
    ['PARTNER-NO-SERVER-ERROR'],
    'The partner refresh call answers 503 without Retry-After to a refresh token it never issued (instead of refusing it with a 4xx).',
  ),
  fault(
    'partner-refresh-unknown-token-503-retry-forever',
    ['PARTNER-NO-SERVER-ERROR'],
    'The partner refresh call answers a refresh token it never issued 503 with Retry-After: 0, every time it is sent again.',
  ),
  variant(
    'lenient-json-unknown-user-401',
    'Conformant: partner-key bodies are read as JSON whatever their Content-Type, and a mint or reset for an e-mail that is no user of ' +
      'the tenant is refused with 401 (the spec gives that refusal no status), so a malformed call read leniently is answered 401.',
  ),
  variant(
    'exchange-foreign-client-revokes',
    'Conformant: a refresh token presented under another client id (or none) is refused and revoked as a precaution ' +
      '(a token sent by the wrong client may be stolen); the spec does not say it must stay usable.',
  ),

  // ── The token page and the sign-in pages ───────────────────────────────────────────────────
  fault(
    'token-page-no-reauth',
    ['TOKEN-PAGE-REAUTH'],
    'prompt=login is ignored while a sign-in session exists: Generate token gets a token without the password being typed again.',
  ),
  fault(
    'token-page-reauth-shows-no-user',
    ['TOKEN-PAGE-REAUTH'],
    'The re-authentication page is the full sign-in form, empty: it shows no signed-in user and asks for the user name and the password.',
  ),
  fault(
    'token-page-other-user',
    ['TOKEN-PAGE-OWNER'],
    'The token handed out after re-authentication belongs to another direct user of the tenant, not to the one who signed in.',
  ),
  fault('token-page-shown-on-reload', ['TOKEN-PAGE-SHOWN-ONCE'], "The page keeps the token in the tab's sessionStorage and shows it again after a reload."),
  fault('token-page-unmasked', ['TOKEN-PAGE-MASKED'], 'The page shows the full token instead of a masked one.'),
  fault('token-page-countdown-from-1-00', ['TOKEN-PAGE-COUNTDOWN'], 'The countdown starts at 1:00 instead of 2:00.'),
  fault(
    'token-page-cleared-early',
    ['TOKEN-PAGE-COUNTDOWN'],
    'The countdown starts at 2:00 but the token is cleared (with the notice) after one minute, at 1:00.',
  ),
  fault('token-page-not-cleared', ['TOKEN-PAGE-CLEARED'], 'At 0:00 the countdown stops but the token stays on the page and no notice is shown.'),
  fault('token-page-revokes-cleared-token', ['TOKEN-PAGE-STAYS-VALID'], 'When the page clears the token at 0:00 it also revokes it at the sign-in server.'),
  fault('token-page-copy-truncated', ['TOKEN-PAGE-COPY'], 'Copy writes the token without its last character.'),
  fault(
    'token-page-copy-failure-ignored',
    ['TOKEN-PAGE-COPY-BLOCKED'],
    'A refused clipboard write is ignored: the page says "Token copied." instead of the copy-failure message.',
  ),
  fault(
    'token-page-unreachable-wrong-text',
    ['TOKEN-PAGE-SIGNIN-UNREACHABLE'],
    'With the sign-in page unreachable, the page says "Could not reach the sign-in page." instead of the spec\'s message.',
  ),
  fault(
    'token-page-cancel-wrong-text',
    ['TOKEN-PAGE-CANCELLED'],
    'After a cancelled sign-in the page says "Token generation cancelled." instead of the spec\'s message.',
  ),
  fault(
    'token-page-no-token-wrong-text',
    ['TOKEN-PAGE-NO-TOKEN'],
    'When no token comes back the page says "Something went wrong." instead of the spec\'s message.',
  ),
  fault(
    'token-page-offline-access-ignored',
    ['TOKEN-PAGE-NO-TOKEN'],
    'The token page redeems the code on its server (as in token-page-server-side), and the sign-in server issues an API token ' +
      'even to an authorization request without offline_access: a sign-in that should return no token returns one.',
  ),
  variant(
    'token-page-server-side',
    'Conformant: the token page redeems the authorization code on its server (a confidential client, as many web applications do), ' +
      'not in the browser; its authorization request asks for offline_access, without which no API token is issued.',
  ),
  fault(
    'token-page-feature-off-shown',
    ['TOKEN-PAGE-FEATURE-OFF'],
    "The token page is served, Generate button and all, where the tenant's API-token feature is off.",
  ),
  fault('token-page-lists-tokens', ['TOKEN-PAGE-NO-LIST'], "The page lists the user's live API tokens, each with a Revoke button."),
] as const;

function fault<const N extends string>(name: N, rules: readonly RuleId[], description: string, collateral?: readonly Collateral[]) {
  return { name, rules, description, ...(collateral ? { collateral } : {}) } as const;
}

function variant<const N extends string>(name: N, description: string) {
  return { name, rules: [] as readonly RuleId[], description, conformant: true } as const;
}

/** A fault or variant of the store's race window: it brings the store's delay (RACE_STORE_DELAY_MS) when none is set. */
function raced<const F extends { readonly name: string }>(f: F) {
  return { ...f, storeDelayMs: RACE_STORE_DELAY_MS } as const;
}

export type FaultName = (typeof faults)[number]['name'];

/** Every fault the reference server knows, in the order `tack serve --list-faults` prints them. */
export const FAULTS: readonly FaultInfo[] = faults;

const names = new Set<string>(faults.map((f) => f.name));

function isFaultName(name: string): name is FaultName {
  return names.has(name);
}

/** The faults one server runs with. `has` only takes known names, so a typo is a type error. */
export class FaultSet {
  readonly #active: ReadonlySet<FaultName>;

  constructor(active: Iterable<FaultName> = []) {
    this.#active = new Set(active);
  }

  has(name: FaultName): boolean {
    return this.#active.has(name);
  }

  get size(): number {
    return this.#active.size;
  }

  list(): readonly FaultName[] {
    return [...this.#active];
  }
}

/**
 * Turns user input into a FaultSet. An unknown name throws an Error that names it and lists the
 * valid ones.
 */
export function parseFaults(input: readonly string[] = []): FaultSet {
  const unknown = input.filter((name) => !isFaultName(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Valid faults: ${[...names].join(', ')}`);
  }
  return new FaultSet(input.filter(isFaultName));
}
