/**
 * The Artillery processor is what the profiles define, not a copy: `tack load export artillery`
 * bundles it from the profiles' own modules (and nothing that talks to a target), the script names
 * only functions it exports, and the bundled processor, driven here in-process as Artillery drives
 * it, judges each answer exactly as the profile's conversation in `tack load` does. A profile
 * without an Artillery form does not type-check. (Artillery itself runs the export in
 * export.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { isBuiltin } from 'node:module';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ExchangeConversation, exchangeProfile } from '../../../load-profiles/exchange.js';
import { LOAD_PROFILES } from '../../../load-profiles/index.js';
import { bundleProcessor, type Processor } from '../../../src/load/artillery/export.js';
import { type ArtilleryHooks, COUNTERS, OUTCOME_COUNTER, sendsHook } from '../../../src/load/artillery/hooks.js';
import { artilleryScript } from '../../../src/load/artillery/script.js';
import { LoadChain } from '../../../src/load/chains/chain.js';
import type { LoadProfile } from '../../../src/load/profile.js';
import { REQUEST_KINDS } from '../../../src/load/types.js';
import { startReferenceServer, type ReferenceServer } from '../../../src/reference/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tack-processor-'));
let processor: Processor;
let load: (env: NodeJS.ProcessEnv) => ArtilleryHooks;
let healthy: ReferenceServer;
let sameToken: ReferenceServer;

beforeAll(async () => {
  [processor, healthy, sameToken] = await Promise.all([
    bundleProcessor('test'),
    startReferenceServer(),
    startReferenceServer({ faults: ['rotation-same-token'] }),
  ]);
  const file = join(dir, 'tack-processor.cjs');
  writeFileSync(file, processor.code);
  // A fresh copy of the module per target: it reads the TACK_* variables once, at its first set-up, as on a runner.
  load = (env) => {
    const require = createRequire(import.meta.url);
    delete require.cache[file];
    const hooks = require(file) as ArtilleryHooks;
    targets.set(hooks, env);
    return hooks;
  };
});
const targets = new WeakMap<ArtilleryHooks, NodeJS.ProcessEnv>();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([healthy?.close(), sameToken?.close()]);
});

describe('the processor is bundled from the profiles', () => {
  it("holds every profile's module and wire.ts, tack's config schema and clients, and nothing that talks to a target", () => {
    for (const p of LOAD_PROFILES) expect(processor.inputs).toContain(`load-profiles/${p.name}.ts`);
    expect(processor.inputs).toContain('load-profiles/wire.ts');
    // The TACK_* variables are read by tack's own code, and the setup calls are tack's own clients.
    for (const f of ['config/schema.ts', 'src/harness/config.ts', 'src/harness/clients/hook.ts', 'src/harness/clients/partner.ts'])
      expect(processor.inputs).toContain(f);
    const harness = /^src\/harness\/((errors|config|target-config)|clients\/(fields|hook|partner))\.ts$/;
    const ours = (f: string) => /^(load-profiles\/|src\/load\/|src\/spec\.ts$|config\/schema\.ts$)/.test(f) || harness.test(f);
    // The packages the config schema reads with, inlined; never undici or tack's HTTP client.
    const packages = /^node_modules\/(zod|dotenv|fastest-levenshtein)\//;
    expect(processor.inputs.filter((f) => !ours(f) && !packages.test(f))).toEqual([]);
    const required = [...processor.code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(required.filter((m) => !isBuiltin(m))).toEqual([]);
  });

  it.each(LOAD_PROFILES.map((p) => [p.name, p] as const))('%s: the script names only functions the processor exports', (_name, profile) => {
    const script = parse(artilleryScript({ profile, connections: 2, durationMs: 1000, thresholds: [], failOnErrors: true, timeoutMs: 5000, version: 't' }));
    const scenario = script.scenarios[0];
    const loop = scenario.flow[0].loop as Record<string, { name: string; ifTrue: string; beforeRequest: string; afterResponse: string }>[];
    expect(loop.map((step) => Object.values(step)[0]!.name)).toEqual([...profile.kinds]);
    const named = [
      scenario.beforeScenario,
      scenario.onError,
      scenario.flow[0].whileTrue,
      ...loop.flatMap((s) => Object.values(s[Object.keys(s)[0]!]!).slice(2)),
    ];
    const hooks = load(healthy.env) as unknown as Record<string, unknown>;
    for (const name of named) expect(typeof hooks[name], name).toBe('function');
  });
});

// ── Artillery's side, as it calls the processor ─────────────────────────────────────────────────

interface Vu {
  readonly vars: Record<string, unknown>;
  readonly counts: Map<string, number>;
  readonly events: { emit(type: 'counter', name: string, value: number): void };
}

async function startVu(hooks: ArtilleryHooks, profile: string): Promise<Vu> {
  const counts = new Map<string, number>();
  const vu = {
    vars: { tackProfile: profile, tackDurationS: 60 },
    counts,
    events: { emit: (_: 'counter', n: string, v: number) => counts.set(n, (counts.get(n) ?? 0) + v) },
  };
  // The variables are read synchronously, before the set-up's first await: only that long are they set here.
  const saved = process.env;
  // Only the target's TACK_* variables: the processor refuses any it does not know, as tack does.
  process.env = { ...Object.fromEntries(Object.entries(saved).filter(([k]) => !k.startsWith('TACK_'))), ...targets.get(hooks) };
  let setUp: Promise<void>;
  try {
    setUp = hooks.tackSetUp({ vars: vu.vars }, vu.events);
  } finally {
    process.env = saved;
  }
  await setUp;
  return vu;
}

/** One turn of the loop: the request the conversation sends next, answered by `answer`. */
async function turn(hooks: ArtilleryHooks, vu: Vu, answer: (req: Record<string, unknown>) => Promise<{ statusCode: number; body: string }>) {
  const kind = REQUEST_KINDS.find((k) => hooks[sendsHook(k)](vu.vars));
  const req: Record<string, unknown> = {};
  hooks.tackRequest(req, { vars: vu.vars }, vu.events, (e) => expect(e).toBeUndefined());
  hooks.tackAnswer(req, await answer(req), { vars: vu.vars }, vu.events, () => undefined);
  return kind;
}

/** Sends the request over HTTP, as Artillery would (with the processor's lookup). */
function send(req: Record<string, unknown>): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = http.request(
      req.url as string,
      { method: req.method as string, headers: req.headers as http.OutgoingHttpHeaders, lookup: req.lookup as never },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
      },
    );
    r.on('error', reject);
    r.end(req.body as string | undefined);
  });
}

const nonZero = (counts: Map<string, number>) => Object.fromEntries([...counts].filter(([, v]) => v > 0));

describe('the bundled processor judges as tack load does', () => {
  it.each(LOAD_PROFILES.map((p) => [p.name, p] as const))('%s against the reference: every kind sent, no failure, chains rotate', async (name, profile) => {
    const hooks = load(healthy.env);
    const vu = await startVu(hooks, name);
    const sent = new Set<string>();
    for (let i = 0; i < 6; i++) sent.add((await turn(hooks, vu, send))!);
    expect([...sent].sort()).toEqual([...profile.kinds].sort());
    const counts = nonZero(vu.counts);
    expect(counts).toMatchObject({ [COUNTERS.started]: 1 });
    for (const failure of [COUNTERS.broken, COUNTERS.againstSpec, COUNTERS.unexpectedStatus, COUNTERS.setupFailed]) expect(counts[failure]).toBeUndefined();
    if (name !== 'partner-mint') expect(counts[COUNTERS.rotations]).toBeGreaterThan(0);
    await new Promise<void>((resolve) => hooks.tackChainGoesOn({ vars: vu.vars }, (goesOn) => resolve(expect(goesOn).toBe(true))));
  });

  it('an exchange that hands back the token it was sent is against the spec (rotation-same-token)', async () => {
    const hooks = load(sameToken.env);
    const vu = await startVu(hooks, 'exchange');
    await turn(hooks, vu, send);
    expect(nonZero(vu.counts)).toMatchObject({ [COUNTERS.againstSpec]: 1, [`${COUNTERS.againstSpec}.exchange`]: 1 });
  });

  const exchange200 = (fields: Record<string, unknown>) =>
    JSON.stringify({ access_token: 'at', refresh_token: 'rt-next', token_type: 'Bearer', expires_in: 300, ...fields });
  it.each([
    ['a rotation', 200, exchange200({})],
    ['expires_in 299', 200, exchange200({ expires_in: 299 })],
    ['expires_in "300"', 200, exchange200({ expires_in: '300' })],
    ['no access_token', 200, exchange200({ access_token: '' })],
    ['token_type mac', 200, exchange200({ token_type: 'mac' })],
    ['no refresh_token', 200, exchange200({ refresh_token: null })],
    ['invalid_grant', 400, '{"error":"invalid_grant"}'],
    ['invalid_client', 401, '{"error":"invalid_client"}'],
    ['a 503', 503, 'busy'],
  ])('exchange answered with %s: the counter of the outcome tack gives it', async (_what, status, body) => {
    const tack = tackOutcome(status, body);
    const hooks = load(healthy.env);
    const vu = await startVu(hooks, 'exchange');
    vu.counts.clear();
    await turn(hooks, vu, () => Promise.resolve({ statusCode: status, body }));
    const expected: Record<string, number> = {};
    if (tack.kind !== 'ok') expected[OUTCOME_COUNTER[tack.kind]] = 1;
    if (tack.kind === 'malformed') expected[`${COUNTERS.againstSpec}.exchange`] = 1;
    if (tack.rotated) expected[COUNTERS.rotations] = 1;
    expect(nonZero(vu.counts)).toEqual(expected);
  });
});

/** What the conversation `tack load exchange` drives makes of one answer. */
function tackOutcome(status: number, body: string) {
  let rotated = false;
  const endpoint = { connectUrl: 'http://127.0.0.1:1', host: 'id.localhost:1', pathPrefix: '', servername: undefined, loopback: true };
  const tally = { rotation: () => (rotated = true), note: () => undefined };
  const conversation = new ExchangeConversation(new LoadChain('chain 1', 'rt-0', undefined), endpoint, 'payroll-portal', tally);
  conversation.next();
  const outcome = conversation.answer(status, body);
  return { kind: outcome.kind, rotated };
}

describe('a profile is one typed unit', () => {
  it('a profile without its Artillery form does not type-check', () => {
    // @ts-expect-error: `artillery` is missing, and a LoadProfile cannot be exported without it
    const profile: LoadProfile = { name: 'new', title: 'a new profile', defaultThresholds: [], kinds: ['exchange'], prepare: exchangeProfile.prepare };
    expect(profile.name).toBe('new');
  });
});
