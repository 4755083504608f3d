/**
 * Evidence of a client under test made by hand (no server, no process), for the unit tests of the
 * client judges (suites/client/judges/): requests with their answers, runs and scenarios, and a
 * judge called on them with every check it records kept as plain data (verdict, the requests and
 * run it points at).
 */
import type { ObservedRequest } from '../../src/checks/observed-request.js';
import type { RuleId } from '../../src/rules/catalog.js';
import type { ObservedRun, Profile, ScenarioEvidence, ScenarioSettings } from '../../suites/client/evidence.js';
import type { ClientJudge } from '../../suites/client/judge.js';

export const IDENTITY = '/realms/payroll';
export const TOKEN_PATH = `${IDENTITY}/protocol/openid-connect/token`;
export const REVOKE_PATH = `${IDENTITY}/protocol/openid-connect/revoke`;
/** The API token of the token file at the start. */
export const FIRST = 'tpat_initial_token_000';
export const PARTNER = { clientId: 'acme-partner', secret: 'partner-secret-000000', headers: ['K1', 'K2'] as const };
export const EMAIL = 'a@x';
export const FORM = 'application/x-www-form-urlencoded';

export function settings(profile: Profile): ScenarioSettings {
  const common = { profile, clientId: 'payroll-portal', identityPath: IDENTITY };
  if (profile === 'personal-token') return { ...common, apiToken: FIRST, partner: undefined, userEmail: undefined };
  return { ...common, apiToken: undefined, partner: { ...PARTNER }, userEmail: EMAIL };
}

let seq = 0;
let clock = 1_000_000;

/** `after`: ms since the previous request arrived (10); `took`: ms until its answer (1); `unanswered`: no answer at all. */
export type Parts = Partial<Omit<ObservedRequest, 'response'>> & { status?: number; answer?: unknown; after?: number; took?: number; unanswered?: boolean };

export function req(run: number, role: ObservedRequest['role'], method: string, target: string, parts: Parts = {}): ObservedRequest {
  const { status, answer, after, took, unanswered, ...rest } = parts;
  clock += after ?? 10;
  const response = unanswered
    ? undefined
    : { status: status ?? 200, headers: {}, body: answer === undefined ? '' : JSON.stringify(answer), at: clock + (took ?? 1) };
  return { seq: ++seq, run, role, method, target, headers: {}, body: undefined, at: clock, response, ...rest };
}

/** An exchange of `sent` at the sign-in server, answered with `issued` (200) unless `parts` say otherwise. */
export function exchange(run: number, sent: string, issued?: { access: string; refresh?: string }, parts: Parts = {}): ObservedRequest {
  const answer = issued === undefined ? undefined : { access_token: issued.access, refresh_token: issued.refresh, expires_in: 300, token_type: 'Bearer' };
  return req(run, 'identity', 'POST', TOKEN_PATH, {
    headers: { 'content-type': FORM },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: sent }).toString(),
    answer,
    ...parts,
  });
}

/** An exchange of `sent` refused with invalid_grant. */
export const refused = (run: number, sent: string, parts: Parts = {}) =>
  exchange(run, sent, undefined, { status: 400, answer: { error: 'invalid_grant' }, ...parts });

export function revoke(run: number, token: string, parts: Parts = {}): ObservedRequest {
  return req(run, 'identity', 'POST', REVOKE_PATH, {
    headers: { 'content-type': FORM },
    body: new URLSearchParams({ client_id: 'payroll-portal', token }).toString(),
    ...parts,
  });
}

export const partnerHeaders = { k1: PARTNER.clientId, k2: PARTNER.secret };

/** A partner mint answered with `access` and the partner refresh token `tprt_<access>`. */
export function mint(run: number, access: string, parts: Parts = {}): ObservedRequest {
  return req(run, 'tenant', 'POST', '/api/admin/authentication/token', {
    headers: { 'content-type': 'application/json', ...partnerHeaders },
    body: JSON.stringify({ username: EMAIL }),
    answer: { accessToken: access, refreshToken: `tprt_${access}` },
    ...parts,
  });
}

/** A partner refresh sending `sent`, answered with `access` and the partner refresh token `tprt_<access>`. */
export function partnerRefresh(run: number, sent: string, access: string, parts: Parts = {}): ObservedRequest {
  return req(run, 'tenant', 'POST', '/api/admin/authentication/refresh', {
    headers: { 'content-type': 'application/json', ...partnerHeaders },
    body: JSON.stringify({ refreshToken: sent }),
    answer: { accessToken: access, refreshToken: `tprt_${access}` },
    ...parts,
  });
}

export function search(run: number, access: string, status = 200, parts: Parts = {}): ObservedRequest {
  return req(run, 'tenant', 'GET', '/api/businesses/search', {
    headers: { authorization: `Bearer ${access}` },
    status,
    answer: { items: [], totalCount: 0 },
    ...parts,
  });
}

/** A run that exited with 0 by default. */
export function run(index: number, requests: readonly ObservedRequest[], parts: Partial<ObservedRun> = {}): ObservedRun {
  return {
    index,
    end: 'exited',
    exitCode: 0,
    signal: null,
    startProblem: undefined,
    stdout: '',
    stderr: '',
    outputTruncated: false,
    startedAt: requests[0]?.at ?? clock,
    durationMs: 100,
    requests,
    tokenFile: undefined,
    ...parts,
  };
}

export function scenario(id: string, profile: Profile, runs: readonly ObservedRun[]): ScenarioEvidence {
  return { id, settings: settings(profile), runs };
}

export interface RecordedCheck {
  readonly title: string;
  readonly ok: boolean;
  readonly expected: string;
  readonly actual: string;
  /** The seqs of the requests it was judged on, in the order given. */
  readonly seqs: readonly number[];
  readonly run: number | undefined;
}

export interface Recorded {
  readonly checks: RecordedCheck[];
  readonly unverified: { readonly title: string; readonly reason: string }[];
  /** The verdicts of the checks, in order: `ok` or `failed`. */
  readonly oks: string[];
}

/** Calls `judge` on `evidence`; `otherFailures` answers which other MUST rules failed on a run (none by default). */
export function judged(judge: ClientJudge, evidence: ScenarioEvidence, otherFailures: (run: number) => readonly RuleId[] = () => []): Recorded {
  const checks: RecordedCheck[] = [];
  const unverified: { title: string; reason: string }[] = [];
  judge.judge(evidence, {
    check(title, found, requests = [], run) {
      checks.push({ title, ok: found.ok, expected: found.expected, actual: found.actual, seqs: requests.map((r) => r.seq), run });
    },
    unverified(title, reason) {
      unverified.push({ title, reason });
    },
    shown: (output) => output.replace(/\s+/g, ' ').trim(),
    otherFailures,
  });
  return { checks, unverified, oks: checks.map((c) => (c.ok ? 'ok' : 'failed')) };
}
