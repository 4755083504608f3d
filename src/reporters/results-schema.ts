/**
 * results.json (`tack-results/1`) as a zod schema: what `readResults` validates (baseline,
 * certify, annotate read it back), and what `npm run docs` turns into schemas/results.schema.json
 * for others who read the file. Objects are loose: a newer tack may add members; a reader of this
 * version keeps the ones it knows. Every document tack writes must pass it (tests validate the
 * results.json of real runs, including one stopped by a configuration error).
 */
import { z } from 'zod';

const status = z.enum(['passed', 'failed', 'warning', 'skipped', 'error']);

const check = z.looseObject({
  rule: z.string(),
  test: z.string(),
  title: z.string(),
  ok: z.boolean(),
  expected: z.string(),
  actual: z.string(),
  exchanges: z.array(z.number()),
  replay: z.looseObject({ seed: z.number(), path: z.string().optional(), counterexample: z.string() }).optional(),
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
});
