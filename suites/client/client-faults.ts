/**
 * The faults of the faulty client tack's own tests run (test/subjects/clients/client.mjs), each
 * with the one rule it breaks and the profiles it is played in (a fault of the partner key has no
 * personal-token form, and so on): the client's counterpart of src/reference/faults.ts, words and
 * data only, read by `tack rules`.
 *
 * `unexercised`: rules the fault leaves with nothing to judge (or a part of them unseen) in a
 * profile, which must then be `skipped` (never passed, never failed), each with the reason. The
 * fixture refreshes a partner token only after a 401 on a call it made with a token; a fault that
 * never gets there leaves no refresh to judge.
 */
import type { RuleId } from '../../src/rules/catalog.js';

interface ClientFault {
  readonly fault: string;
  readonly rule: RuleId;
  readonly profiles: readonly ('personal-token' | 'partner-key')[];
  readonly unexercised?: readonly Unexercised[];
  /**
   * SHOULD rules the fault breaks too, on purpose, in a profile (each must be a `warning`): the
   * fault shows a MUST judged apart from a warning (a warning once hid a missing search).
   */
  readonly warns?: readonly Unexercised[];
}

interface Unexercised {
  readonly profile: 'personal-token' | 'partner-key';
  readonly rules: readonly RuleId[];
  readonly why: string;
}

const NO_REFRESH = 'after the 401 it does not retry with a token of its own, so it never refreshes';
const OWN_STORE = 'it keeps the rotated API token in memory and never writes the token file';

const BOTH = ['personal-token', 'partner-key'] as const;

/** Every rule of the profile: a fault that gives up before its work leaves all but a few with nothing to judge. */
const PERSONAL: readonly RuleId[] = [
  'CLIENT-EXCHANGE-FORM',
  'CLIENT-NO-SECRET',
  'CLIENT-BEARER',
  'CLIENT-RETRY-ONCE-ON-401',
  'CLIENT-STORES-ROTATED-TOKEN',
  'CLIENT-REUSE-ACCESS-TOKEN',
  'CLIENT-STOPS-ON-INVALID-GRANT',
  'CLIENT-NO-403-LOOP',
  'CLIENT-SECRETS-NOT-LOGGED',
  'CLIENT-NO-TOKEN-IN-URL',
  'CLIENT-EXIT-STATUS',
  'CLIENT-KEEPS-API-TOKEN',
  'CLIENT-NO-ORIGIN',
  'CLIENT-TOKEN-FILE-SAFE',
];
const PARTNER: readonly RuleId[] = [
  'CLIENT-BEARER',
  'CLIENT-RETRY-ONCE-ON-401',
  'CLIENT-REUSE-ACCESS-TOKEN',
  'CLIENT-NO-403-LOOP',
  'CLIENT-SECRETS-NOT-LOGGED',
  'CLIENT-NO-TOKEN-IN-URL',
  'CLIENT-PARTNER-HEADERS',
  'CLIENT-PARTNER-JSON',
  'CLIENT-REFRESH-SAME-HOST',
  'CLIENT-EXIT-STATUS',
  'CLIENT-PARTNER-KEY-ADMIN-ONLY',
];
const EARLY = 'every run gives up after reading discovery, before any exchange, mint or API call: nothing else is reached';

export const CLIENT_FAULTS: readonly ClientFault[] = [
  { fault: 'exchange-json-first', rule: 'CLIENT-EXCHANGE-FORM', profiles: ['personal-token'] },
  { fault: 'client-secret', rule: 'CLIENT-NO-SECRET', profiles: ['personal-token'] },
  {
    fault: 'no-auth-first',
    rule: 'CLIENT-BEARER',
    profiles: BOTH,
    unexercised: [{ profile: 'partner-key', rules: ['CLIENT-REFRESH-SAME-HOST'], why: `its one retry is spent on its own missing token: ${NO_REFRESH}` }],
  },
  {
    fault: 'no-retry',
    rule: 'CLIENT-RETRY-ONCE-ON-401',
    profiles: BOTH,
    unexercised: [{ profile: 'partner-key', rules: ['CLIENT-REFRESH-SAME-HOST'], why: NO_REFRESH }],
  },
  {
    fault: 'no-store',
    rule: 'CLIENT-STORES-ROTATED-TOKEN',
    profiles: ['personal-token'],
    unexercised: [{ profile: 'personal-token', rules: ['CLIENT-TOKEN-FILE-SAFE'], why: OWN_STORE }],
  },
  { fault: 'exchange-per-call', rule: 'CLIENT-REUSE-ACCESS-TOKEN', profiles: BOTH },
  { fault: 'retry-invalid-grant', rule: 'CLIENT-STOPS-ON-INVALID-GRANT', profiles: ['personal-token'] },
  { fault: 'retry-403', rule: 'CLIENT-NO-403-LOOP', profiles: BOTH },
  { fault: 'log-token', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: BOTH },
  { fault: 'token-in-url', rule: 'CLIENT-NO-TOKEN-IN-URL', profiles: BOTH },
  { fault: 'refresh-without-headers', rule: 'CLIENT-PARTNER-HEADERS', profiles: ['partner-key'] },
  { fault: 'mint-form-first', rule: 'CLIENT-PARTNER-JSON', profiles: ['partner-key'] },
  { fault: 'refresh-at-identity', rule: 'CLIENT-REFRESH-SAME-HOST', profiles: ['partner-key'] },
  { fault: 'wrong-exit', rule: 'CLIENT-EXIT-STATUS', profiles: BOTH },
  // ── work that must succeed, tokens that must be kept, secrets in any form, the SHOULDs ──
  {
    fault: 'give-up-early',
    rule: 'CLIENT-COMPLETES-WORK',
    profiles: BOTH,
    unexercised: [
      { profile: 'personal-token', rules: PERSONAL, why: EARLY },
      { profile: 'partner-key', rules: PARTNER, why: EARLY },
    ],
  },
  {
    fault: 'store-on-success',
    rule: 'CLIENT-STORES-ROTATED-TOKEN',
    profiles: ['personal-token'],
  },
  {
    fault: 'cache-access-token',
    rule: 'CLIENT-STORES-ROTATED-TOKEN',
    profiles: ['personal-token'],
    unexercised: [
      {
        profile: 'personal-token',
        rules: ['CLIENT-RETRY-ONCE-ON-401', 'CLIENT-TOKEN-FILE-SAFE'],
        why: `run 2 of two-runs meets its 401, and the renewal with the stale token is refused (invalid_grant), so that retry is not seen; ${OWN_STORE}`,
      },
    ],
  },
  { fault: 'revoke-at-end', rule: 'CLIENT-KEEPS-API-TOKEN', profiles: ['personal-token'] },
  { fault: 'log-encoded', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: ['personal-token'] },
  { fault: 'origin-header', rule: 'CLIENT-NO-ORIGIN', profiles: ['personal-token'] },
  { fault: 'key-on-search', rule: 'CLIENT-PARTNER-KEY-ADMIN-ONLY', profiles: ['partner-key'] },
  { fault: 'file-in-place', rule: 'CLIENT-TOKEN-FILE-SAFE', profiles: ['personal-token'] },
  // ── secrets in every spelling, a warning that hid missing work ──
  { fault: 'log-hex', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: ['personal-token'] },
  { fault: 'hex-in-url', rule: 'CLIENT-NO-TOKEN-IN-URL', profiles: ['partner-key'] },
  { fault: 'basic-at-identity', rule: 'CLIENT-PARTNER-KEY-ADMIN-ONLY', profiles: ['partner-key'] },
  {
    fault: 'exchange-only',
    rule: 'CLIENT-COMPLETES-WORK',
    profiles: ['personal-token'],
    unexercised: [
      {
        profile: 'personal-token',
        rules: ['CLIENT-BEARER', 'CLIENT-RETRY-ONCE-ON-401', 'CLIENT-REUSE-ACCESS-TOKEN', 'CLIENT-NO-403-LOOP'],
        why: 'it makes no API call',
      },
    ],
    warns: [{ profile: 'personal-token', rules: ['CLIENT-NO-ORIGIN'], why: 'the warning that once excused its missing search' }],
  },
  // ── two workers, one stored token ──
  {
    fault: 'parallel-exchange',
    rule: 'CLIENT-STORES-ROTATED-TOKEN',
    profiles: ['personal-token'],
    warns: [
      {
        profile: 'personal-token',
        rules: ['CLIENT-REUSE-ACCESS-TOKEN'],
        why: 'each worker gets an access token of its own while the one of the first page is still valid',
      },
    ],
  },
  // ── verdicts tack once got wrong ──
  // Run 2 of parallel-pages once reused the kept access token and never exchanged the dead token stored.
  {
    fault: 'late-store',
    rule: 'CLIENT-STORES-ROTATED-TOKEN',
    profiles: ['personal-token'],
    unexercised: [
      {
        profile: 'personal-token',
        rules: ['CLIENT-RETRY-ONCE-ON-401'],
        why: 'run 2 of parallel-pages meets its 401, and the renewal with the stale token is refused (invalid_grant), so that retry is not seen',
      },
    ],
  },
  // A run killed by a signal after its work succeeded was not judged: it did not exit 0.
  { fault: 'killed-after-work', rule: 'CLIENT-EXIT-STATUS', profiles: BOTH },
  // Hex as tools print it, every byte %-escaped: once no secret.
  { fault: 'log-xxd', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: BOTH },
  // `xxd -e -c 8`: little-endian words, 8 characters of the token a line in the ASCII column: once no secret.
  { fault: 'log-xxd-e', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: BOTH },
  { fault: 'escaped-in-url', rule: 'CLIENT-NO-TOKEN-IN-URL', profiles: BOTH },
  // The partner secret in a body sent to the sign-in server: once judged by headers only.
  { fault: 'secret-in-body-at-identity', rule: 'CLIENT-PARTNER-KEY-ADMIN-ONLY', profiles: ['partner-key'] },
  // A token sent with every byte %-escaped, never as it is: a refused revocation, a refresh grant at the sign-in server; once unseen.
  { fault: 'revoke-escaped', rule: 'CLIENT-KEEPS-API-TOKEN', profiles: ['personal-token'] },
  { fault: 'refresh-at-identity-encoded', rule: 'CLIENT-REFRESH-SAME-HOST', profiles: ['partner-key'] },
  // A revocation at the Host-routed listener (Host: id.localhost) in a scenario's last run: once no sign-in request, so unseen.
  { fault: 'revoke-host-routed', rule: 'CLIENT-KEEPS-API-TOKEN', profiles: ['personal-token'] },
  // `od -t d1`: decimal bytes behind octal offsets: once no secret.
  { fault: 'log-od-d1', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: BOTH },
];
