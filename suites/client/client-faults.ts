/**
 * The faults of the faulty client tack's own tests run (test/subjects/clients/client.mjs), each
 * with the one rule it breaks and the profiles it is played in (a fault of the partner key has no
 * personal-token form, and so on): the client's counterpart of src/reference/faults.ts, words and
 * data only, read by `tack rules`.
 *
 * `unexercised`: rules the fault leaves with nothing to judge in a profile, which must then be
 * `skipped` (never passed, never failed), each with the reason. The fixture refreshes a partner
 * token only after a 401 on a call it made with a token; a fault that never gets there leaves no
 * refresh to judge.
 */
import type { RuleId } from '../../src/rules/catalog.js';

export interface ClientFault {
  readonly fault: string;
  readonly rule: RuleId;
  readonly profiles: readonly ('personal-token' | 'partner-key')[];
  readonly unexercised?: { readonly profile: 'personal-token' | 'partner-key'; readonly rules: readonly RuleId[]; readonly why: string };
}

const NO_REFRESH = 'after the 401 it does not retry with a token of its own, so it never refreshes';

const BOTH = ['personal-token', 'partner-key'] as const;

export const CLIENT_FAULTS: readonly ClientFault[] = [
  { fault: 'exchange-json-first', rule: 'CLIENT-EXCHANGE-FORM', profiles: ['personal-token'] },
  { fault: 'client-secret', rule: 'CLIENT-NO-SECRET', profiles: ['personal-token'] },
  {
    fault: 'no-auth-first',
    rule: 'CLIENT-BEARER',
    profiles: BOTH,
    unexercised: { profile: 'partner-key', rules: ['CLIENT-REFRESH-SAME-HOST'], why: `its one retry is spent on its own missing token: ${NO_REFRESH}` },
  },
  {
    fault: 'no-retry',
    rule: 'CLIENT-RETRY-ONCE-ON-401',
    profiles: BOTH,
    unexercised: { profile: 'partner-key', rules: ['CLIENT-REFRESH-SAME-HOST'], why: NO_REFRESH },
  },
  { fault: 'no-store', rule: 'CLIENT-STORES-ROTATED-TOKEN', profiles: ['personal-token'] },
  { fault: 'exchange-per-call', rule: 'CLIENT-REUSE-ACCESS-TOKEN', profiles: BOTH },
  { fault: 'retry-invalid-grant', rule: 'CLIENT-STOPS-ON-INVALID-GRANT', profiles: ['personal-token'] },
  { fault: 'retry-403', rule: 'CLIENT-NO-403-LOOP', profiles: BOTH },
  { fault: 'log-token', rule: 'CLIENT-SECRETS-NOT-LOGGED', profiles: BOTH },
  { fault: 'token-in-url', rule: 'CLIENT-NO-TOKEN-IN-URL', profiles: BOTH },
  { fault: 'refresh-without-headers', rule: 'CLIENT-PARTNER-HEADERS', profiles: ['partner-key'] },
  { fault: 'mint-form-first', rule: 'CLIENT-PARTNER-JSON', profiles: ['partner-key'] },
  { fault: 'refresh-at-identity', rule: 'CLIENT-REFRESH-SAME-HOST', profiles: ['partner-key'] },
  { fault: 'wrong-exit', rule: 'CLIENT-EXIT-STATUS', profiles: BOTH },
];
