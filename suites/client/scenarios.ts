/**
 * The scenarios `tack client` plays, in order, each against a fresh scripted server: what the
 * harness sets up before the first run, how many times it runs the command, and for which profile.
 * Words and data only: src/client performs the setup, the judges (this folder) know what to expect.
 */
import type { Profile } from './evidence.js';

export type ScenarioId = 'happy-path' | 'two-runs' | 'api-401-once' | 'api-401-always' | 'revoked' | 'forbidden' | 'several-calls';

export interface ScenarioSetup {
  /** Revoke the API token of the token file before the first run. */
  readonly revokeApiToken?: boolean;
  /** Answer business search this way, the first `times` calls that carry a valid access token (every such call when absent). */
  readonly search?: { readonly reply: 'unauthorized' | 'forbidden'; readonly times?: number };
  /** More businesses the user may read, so a client that pages through results calls several times. */
  readonly readableBusinesses?: number;
}

export interface ScenarioPlan {
  readonly id: ScenarioId;
  readonly title: string;
  readonly profiles: readonly Profile[];
  /** Runs of the command, one after another, sharing the scenario's state (its token file). */
  readonly runs: number;
  readonly setup: ScenarioSetup;
}

const BOTH: readonly Profile[] = ['personal-token', 'partner-key'];

export const SCENARIOS: readonly ScenarioPlan[] = [
  { id: 'happy-path', title: 'the happy path: one run, everything answers', profiles: BOTH, runs: 1, setup: {} },
  {
    id: 'two-runs',
    title: 'two runs in a row: the second must send the API token the first received (rotated-out tokens are refused)',
    profiles: ['personal-token'],
    runs: 2,
    setup: {},
  },
  {
    id: 'api-401-once',
    title: 'the API answers 401 to the first call with a valid access token: one new access token, one retry, success',
    profiles: BOTH,
    runs: 1,
    setup: { search: { reply: 'unauthorized', times: 1 } },
  },
  {
    id: 'api-401-always',
    title: 'the API answers 401 to every call: one retry, then the run gives up',
    profiles: BOTH,
    runs: 1,
    setup: { search: { reply: 'unauthorized' } },
  },
  {
    id: 'revoked',
    title: 'the API token was revoked: one exchange answered invalid_grant, no retry, the run gives up',
    profiles: ['personal-token'],
    runs: 1,
    setup: { revokeApiToken: true },
  },
  {
    id: 'forbidden',
    title: 'business search answers 403: no retry loop, the run gives up',
    profiles: BOTH,
    runs: 1,
    setup: { search: { reply: 'forbidden' } },
  },
  {
    id: 'several-calls',
    title: 'several API calls in one run (45 more readable businesses to page through): one access token serves them all',
    profiles: BOTH,
    runs: 1,
    setup: { readableBusinesses: 45 },
  },
];

export function scenariosOf(profile: Profile): ScenarioPlan[] {
  return SCENARIOS.filter((s) => s.profiles.includes(profile));
}
