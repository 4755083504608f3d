/**
 * The scenarios `tack client` plays, in order, each against a fresh scripted server: what the
 * harness sets up before the first run, how many times it runs the command, for which profile, and
 * in which runs the service answers as it should (where the client's work must succeed). Words and
 * data only: src/client performs the setup, the judges (this folder) know what to expect.
 */
import type { Profile } from './evidence.js';

export type ScenarioId = 'happy-path' | 'two-runs' | 'api-401-once' | 'api-401-always' | 'revoked' | 'forbidden' | 'several-calls' | 'parallel-pages';

export interface ScenarioSetup {
  /** Revoke the API token of the token file before the first run. */
  readonly revokeApiToken?: boolean;
  /**
   * Answer business search this way: in the runs listed (every run when absent), the first `times`
   * calls of the run that carry a valid access token (every such call when absent).
   */
  readonly search?: { readonly reply: 'unauthorized' | 'forbidden'; readonly times?: number; readonly runs?: readonly number[] };
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
  /**
   * The runs in which the service answers as it should (nothing refused that a conforming client
   * cannot get past): each must complete its business search (CLIENT-COMPLETES-WORK).
   */
  readonly healthy: readonly number[];
}

const BOTH: readonly Profile[] = ['personal-token', 'partner-key'];

export const SCENARIOS: readonly ScenarioPlan[] = [
  { id: 'happy-path', title: 'the happy path: one run, everything answers', profiles: BOTH, runs: 1, setup: {}, healthy: [1] },
  {
    id: 'two-runs',
    title:
      'two runs sharing the token file; the first call of run 2 with a valid access token gets a 401, so even a client that kept ' +
      'its access token exchanges: run 2 must send the API token run 1 received (rotated-out tokens are refused)',
    profiles: ['personal-token'],
    runs: 2,
    setup: { search: { reply: 'unauthorized', times: 1, runs: [2] } },
    healthy: [1, 2],
  },
  {
    id: 'api-401-once',
    title: 'the API answers 401 to the first call with a valid access token: one new access token, one retry, success',
    profiles: BOTH,
    runs: 1,
    setup: { search: { reply: 'unauthorized', times: 1 } },
    healthy: [1],
  },
  {
    id: 'api-401-always',
    title: 'the API answers 401 to every call of run 1: one retry, then the run gives up; run 2, answered normally, carries on with what run 1 kept',
    profiles: BOTH,
    runs: 2,
    setup: { search: { reply: 'unauthorized', runs: [1] } },
    healthy: [2],
  },
  {
    id: 'revoked',
    title: 'the API token was revoked: one exchange answered invalid_grant, no retry, the run gives up',
    profiles: ['personal-token'],
    runs: 1,
    setup: { revokeApiToken: true },
    healthy: [],
  },
  {
    id: 'forbidden',
    title: 'business search answers 403 in run 1: no retry loop, the run gives up; run 2, answered normally, carries on with what run 1 kept',
    profiles: BOTH,
    runs: 2,
    setup: { search: { reply: 'forbidden', runs: [1] } },
    healthy: [2],
  },
  {
    id: 'several-calls',
    title: 'several API calls in one run (45 more readable businesses to page through): one access token serves them all',
    profiles: BOTH,
    runs: 1,
    setup: { readableBusinesses: 45 },
    healthy: [1],
  },
  // A client may fetch the pages after the first in parallel (its workers must share one token chain).
  {
    id: 'parallel-pages',
    title:
      'four pages of results (77 more readable businesses), which a client may fetch in parallel after the first; rotated-out tokens are ' +
      'refused, so workers that each exchange the one stored API token at once break the chain (one meets invalid_grant); run 2 ' +
      'carries on with what run 1 kept; its first call with a valid access token gets a 401, so even a client that kept its access tokens ' +
      'exchanges the API token it stored (a worker that stored an older token after a newer one is caught)',
    profiles: ['personal-token'],
    runs: 2,
    setup: { readableBusinesses: 77, search: { reply: 'unauthorized', times: 1, runs: [2] } },
    healthy: [1, 2],
  },
];

export function scenariosOf(profile: Profile): ScenarioPlan[] {
  return SCENARIOS.filter((s) => s.profiles.includes(profile));
}
