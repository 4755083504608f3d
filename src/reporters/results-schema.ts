/**
 * results.json (`tack-results/1`) as a zod schema, and its types, derived from it (`z.infer`): the
 * one definition of what tack writes. `readResults` validates with it (baseline, certify, annotate
 * read it back), and `npm run docs` turns it into schemas/results.schema.json for others who read
 * the file. Objects are loose: a newer tack may add members; a reader of this version keeps the
 * ones it knows. Every document tack writes must pass it (tests validate the results.json of real
 * runs, including one stopped by a configuration error); the code that builds one type-checks
 * against it, so the two cannot drift.
 */
import { z } from 'zod';
import { STATUSES } from '../runner/results.js';

const status = z.enum(STATUSES);

const check = z.looseObject({
  rule: z.string(),
  test: z.string(),
  title: z.string(),
  ok: z.boolean(),
  expected: z.string(),
  actual: z.string(),
  exchanges: z.array(z.number()),
  from: z.number().optional(),
  replay: z.looseObject({ seed: z.number(), path: z.string().optional(), counterexample: z.string(), rule: z.string().optional() }).optional(),
  /** A failed browser check: where the page was, and its screenshot's path in the run's folder (or why none was kept). */
  screenshot: z.looseObject({ step: z.string(), page: z.string(), withheld: z.string().optional(), file: z.string().optional() }).optional(),
  /** A check of a batch of requests sent together: the count it held to a bound (`returned`: tokens the batch returned; `alive`: of those, still usable). */
  counted: z.looseObject({ bound: z.number(), of: z.enum(['returned', 'alive']) }).optional(),
});

const rule = z.looseObject({
  id: z.string(),
  level: z.enum(['MUST', 'SHOULD']),
  area: z.string(),
  section: z.string(),
  text: z.string(),
  status,
  reason: z.string(),
  durationMs: z.number(),
  checks: z.array(check),
  observations: z.array(z.string()),
  unverified: z.array(z.string()),
  tests: z.array(z.string()),
  exchanges: z.array(z.number()),
  reproduce: z
    .looseObject({
      exchange: z.number(),
      curl: z.string(),
      variables: z.array(z.looseObject({ name: z.string(), meaning: z.string() })),
      script: z.string().optional(),
    })
    .optional(),
  replay: z.string().optional(),
  baseline: z.enum(['expected', 'accepted', 'now-passing', 'new-failure']).optional(),
  baselineReason: z.string().optional(),
});

/** `tack client`: one run of the client's command (its output's end, redacted). */
const clientRun = z.looseObject({
  run: z.number(),
  end: z.enum(['exited', 'timed-out', 'cut-off', 'not-started']),
  exitCode: z.number().nullable(),
  signal: z.string().nullable(),
  startProblem: z.string().optional(),
  durationMs: z.number(),
  requests: z.number(),
  exchanges: z.array(z.number()),
  stdout: z.string(),
  stderr: z.string(),
  outputTruncated: z.boolean(),
});

const client = z.looseObject({
  profile: z.string(),
  command: z.string(),
  runTimeoutS: z.number(),
  deadlineS: z.number(),
  maxRequests: z.number(),
  partnerHeaders: z.array(z.string()),
  passEnv: z.array(z.string()),
  scenarios: z.array(z.looseObject({ id: z.string(), title: z.string(), runs: z.array(clientRun), notPlayed: z.string().optional() })),
});

export const resultsSchema = z.looseObject({
  schema: z.literal('tack-results/1'),
  tack: z.looseObject({ version: z.string(), catalog: z.string() }),
  run: z.looseObject({
    id: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    seed: z.number(),
    numRuns: z.number(),
    strict: z.boolean(),
    requireAll: z.boolean(),
    uncheckedMust: z.number(),
    status: z.enum(['complete', 'deadline', 'interrupted', 'error']).optional(),
    deadline: z.looseObject({ seconds: z.number() }).optional(),
    interrupted: z.looseObject({ signal: z.string() }).optional(),
    notes: z.array(z.string()).optional(),
    only: z.array(z.string()),
    faults: z.array(z.string()),
    exitCode: z.number(),
  }),
  target: z.looseObject({
    baseUrl: z.string(),
    otherBaseUrl: z.string().optional(),
    identityUrl: z.string(),
    partnerHeaders: z.array(z.string()),
    clientId: z.string(),
    builtIn: z.boolean(),
    mode: z.enum(['hook', 'hookless', 'user-only', 'none']),
    hook: z.looseObject({ url: z.string(), contract: z.string().optional(), capabilities: z.array(z.string()), problem: z.string().optional() }).optional(),
    toleranceS: z.number(),
    accessToleranceS: z.number(),
    fieldsUsed: z.record(z.string(), z.string()),
  }),
  baseline: z
    .looseObject({
      file: z.string(),
      entries: z.number(),
      expected: z.array(z.string()),
      accepted: z.array(z.string()).optional(),
      nowPassing: z.array(z.string()),
      newFailures: z.array(z.string()),
      notes: z.array(z.string()),
    })
    .optional(),
  tokens: z
    .looseObject({
      generated: z.number(),
      revoked: z.number(),
      leftAlive: z.number(),
      alive: z.array(z.looseObject({ origin: z.string(), user: z.string().optional(), reason: z.string() })),
      earlierRuns: z.array(z.looseObject({ run: z.string(), startedAt: z.string(), tokens: z.number(), revoked: z.number() })),
      journalKept: z.boolean(),
    })
    .optional(),
  rules: z.array(rule),
  tests: z.array(
    z.looseObject({
      id: z.string(),
      title: z.string(),
      rules: z.array(z.string()),
      status: z.enum(['passed', 'failed', 'skipped', 'error']),
      reason: z.string(),
      durationMs: z.number(),
    }),
  ),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  /** Set by `tack client`: the rules judge a client under test, and `target` is its scripted server. */
  client: client.optional(),
});

/**
 * A zod type as tack reads it: every member read-only, and only the members the schema names (a
 * loose object's "any other member" is what a newer tack may add, not something this one reads).
 */
export type Known<T> = T extends readonly (infer U)[]
  ? readonly Known<U>[]
  : T extends object
    ? { readonly [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

export type ResultsDocument = Known<z.infer<typeof resultsSchema>>;
export type ReportRule = ResultsDocument['rules'][number];
export type ReportCheck = ReportRule['checks'][number];
/** A curl command that sends again the request that judged a rule; secrets are `${TACK_...}` variables. */
export type Reproduction = NonNullable<ReportRule['reproduce']>;
/** A shell variable a reproduction command reads instead of a secret. */
export type ShellVariable = Reproduction['variables'][number];
export type RunStatus = NonNullable<ResultsDocument['run']['status']>;
/** What `tack client` ran: the profile, the command (redacted), its limits and every scenario's runs. */
export type ClientReport = NonNullable<ResultsDocument['client']>;
export type ClientScenarioReport = ClientReport['scenarios'][number];
export type ClientRunReport = ClientScenarioReport['runs'][number];
