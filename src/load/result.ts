/**
 * Reading and writing `tack-load/1` results. Files read back (for `--compare` and `tack load merge`)
 * are validated, so a wrong file is a clear usage error rather than a NaN in a table.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { TackError } from '../harness/errors.js';
import type { Redactor } from '../harness/redactor.js';
import { renderLoadHtml } from './report/html.js';
import { LOAD_SCHEMA, REQUEST_KINDS, ROTATION_POLICIES, STATUS_CLASSES, type LoadResult } from './types.js';

const countMap = z.record(z.string(), z.number());
const counts = z.object({
  responses: z.number(),
  ok: z.number(),
  expected: z.number(),
  non2xx: z.number(),
  malformed: z.number(),
  broken: z.number(),
  lost: z.number(),
  errors: z.number(),
  timeouts: z.number(),
  rotations: z.number(),
  byStatus: countMap,
  errorCodes: countMap,
  notes: countMap,
  raceProbes: z.number().optional(),
  forks: z.number().optional(),
});

const latency = z.object({
  unit: z.literal('us'),
  byClass: z.partialRecord(z.enum(STATUS_CLASSES), z.string()),
  corrected: z.string().nullable(),
});

const endpoints = z.partialRecord(z.enum(REQUEST_KINDS), z.object({ warmup: counts, measured: counts, latency }));

const generator = z.object({
  cpuPct: z.number(),
  busyPct: z.number(),
  loopDelayUs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
  lateSlots: z.number().nullable(),
  lateSlotsPerS: z.number().nullable(),
  saturated: z.boolean(),
  reasons: z.array(z.string()),
});

const machine = z.object({
  cpu: z.string(),
  cores: z.number(),
  node: z.string(),
  platform: z.string(),
  loadBefore: z.array(z.number()),
  loadAfter: z.array(z.number()),
});

export const loadResultSchema = z.object({
  schema: z.literal(LOAD_SCHEMA),
  tack: z.object({ version: z.string() }),
  runId: z.string(),
  profile: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  measuredS: z.number(),
  target: z.object({ baseUrl: z.string(), identityUrl: z.string(), builtIn: z.boolean(), faults: z.array(z.string()) }),
  sut: z.object({ name: z.string(), vcpus: z.number().nullable() }).optional(),
  machine: machine.optional(),
  settings: z.object({
    connections: z.number(),
    durationS: z.number(),
    warmupS: z.number(),
    rate: z.number().nullable(),
    timeoutS: z.number(),
    shard: z.object({ index: z.number(), count: z.number() }).nullable(),
    chains: z.string(),
    failOnErrors: z.boolean(),
  }),
  warmup: counts,
  measured: counts,
  latency,
  endpoints: endpoints.optional(),
  generator: generator.optional(),
  timeline: z.array(
    z.object({
      s: z.number(),
      spanS: z.number().optional(),
      responses: z.number(),
      non2xx: z.number(),
      errors: z.number(),
      timeouts: z.number(),
      latency: z.string(),
      busyPct: z.number().optional(),
      loopDelayUs: z.number().optional(),
      lateSlots: z.number().optional(),
    }),
  ),
  breaks: z.array(
    z.object({
      chain: z.string(),
      cause: z.enum(['rotation', 'lost']),
      atS: z.number(),
      phase: z.enum(['warmup', 'measured']),
      afterRotations: z.number(),
      status: z.number(),
      error: z.string(),
      shard: z.string().optional(),
    }),
  ),
  breaksNotListed: z.number(),
  race: z
    .object({
      share: z.number(),
      chains: z.number(),
      policy: z.enum(ROTATION_POLICIES).nullable(),
      seen: z.string(),
      judged: z.boolean(),
      forks: z.array(
        z.object({
          chain: z.string(),
          atS: z.number(),
          phase: z.enum(['warmup', 'measured']),
          afterRotations: z.number(),
          exchanged: z.number(),
          alive: z.number(),
          shard: z.string().optional(),
        }),
      ),
      forksNotListed: z.number(),
    })
    .optional(),
  thresholds: z.array(
    z.object({
      expr: z.string(),
      ok: z.boolean(),
      actual: z.string(),
      source: z.enum(['profile', 'cli', 'baseline']),
      samples: z.object({ answers: z.number(), needed: z.number() }).optional(),
    }),
  ),
  verdict: z.object({ exitCode: z.number(), reasons: z.array(z.string()) }),
  capacity: z
    .object({
      maxRate: z.number().nullable(),
      breachedRate: z.number().nullable().optional(),
      headline: z.number().nullable().optional(),
      stability: z
        .object({
          verdict: z.enum(['stable', 'unstable']),
          confirmed: z.number(),
          confirmations: z.number(),
          low: z.number().nullable(),
          high: z.number(),
          flips: z.number(),
          disturbed: z.number(),
          reasons: z.array(z.string()),
        })
        .optional(),
      steps: z.array(
        z.object({
          rate: z.number(),
          stage: z.enum(['ladder', 'bisect', 'confirm']).optional(),
          attempt: z.number().optional(),
          status: z.enum(['held', 'breached', 'too-few-samples', 'incorrect']).optional(),
          achieved: z.number(),
          p50: z.number(),
          p90: z.number().optional(),
          p99: z.number(),
          p999: z.number().optional(),
          max: z.number().optional(),
          errors: z.number(),
          brokenChains: z.number(),
          held: z.boolean(),
          reasons: z.array(z.string()),
          unsent: z.number(),
          atS: z.number(),
          measuredS: z.number().optional(),
          measured: counts.optional(),
          latency: latency.optional(),
          endpoints: endpoints.optional(),
          generator: generator.optional(),
          load: z.number().optional(),
        }),
      ),
      settings: z.object({
        startRate: z.number(),
        factor: z.number().nullable(),
        increment: z.number().nullable(),
        stepS: z.number(),
        maxRate: z.number(),
        minAchievedPct: z.number(),
        resolution: z.union([z.object({ pct: z.number() }), z.object({ rps: z.number() })]).optional(),
        warmupS: z.number().optional(),
      }),
    })
    .optional(),
  outputs: z
    .object({
      prometheus: z.object({ host: z.string(), intervalS: z.number(), pushes: z.number(), failed: z.number(), firstError: z.string().optional() }).optional(),
    })
    .optional(),
  stoppedEarly: z.object({ reason: z.string() }).optional(),
  interrupted: z.object({ signal: z.string() }).optional(),
  mergedFrom: z.array(
    z.object({ runId: z.string(), shard: z.string().nullable(), file: z.string(), machine: machine.optional(), generator: generator.optional() }),
  ),
});

export function readLoadResult(file: string, flag: string): LoadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_USAGE', `${flag} ${file} could not be read (${code})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TackError('TACK_ERR_USAGE', `${flag} ${file} is not JSON`);
  }
  const parsed = loadResultSchema.safeParse(json);
  if (!parsed.success) {
    const schema = (json as { schema?: unknown } | null)?.schema;
    const why =
      schema !== LOAD_SCHEMA
        ? `its schema is ${JSON.stringify(schema)}, not ${LOAD_SCHEMA}`
        : `${parsed.error.issues[0]?.path.join('.') ?? 'a field'} is not valid`;
    throw new TackError('TACK_ERR_USAGE', `${flag} ${file} is not a tack load result (${why})`);
  }
  return parsed.data as LoadResult;
}

/** `reports/load-<profile>-<time>[-shard-i-of-n].json`, never overwriting an earlier file. */
export function defaultResultPath(reportsDir: string, profile: string, startedAt: Date, shard: { index: number; count: number } | null): string {
  const stamp = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const base = `load-${profile}-${stamp}${shard ? `-shard-${shard.index}-of-${shard.count}` : ''}`;
  let path = join(reportsDir, `${base}.json`);
  for (let n = 2; existsSync(path); n++) path = join(reportsDir, `${base}-${n}.json`);
  return path;
}

function htmlPathFor(jsonPath: string): string {
  return `${jsonPath.replace(/\.json$/i, '')}.html`;
}

/** Writes the JSON and the HTML page; both pass through the redactor. Returns their paths. */
export function writeLoadResult(result: LoadResult, jsonPath: string, redactor: Redactor | undefined): { json: string; html: string } {
  const html = htmlPathFor(jsonPath);
  mkdirSync(dirname(jsonPath), { recursive: true });
  const clean = (s: string) => (redactor ? redactor.redact(s) : s);
  writeFileSync(jsonPath, `${clean(JSON.stringify(result, null, 2))}\n`);
  writeFileSync(html, clean(renderLoadHtml(result)));
  return { json: jsonPath, html };
}
