/**
 * `tack load export artillery`: the script and processor keep tack's semantics when Artillery runs
 * them. Run with the Artillery pinned in load/artillery (`npm ci --prefix load/artillery`) against
 * the reference server: passes on a healthy server, fails on rotation-unsafe-under-concurrency
 * (chains broken under concurrency). Without that install the run is skipped, saying why.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangeProfile } from '../../../load-profiles/exchange.js';
import { artilleryScript, ensureExpression } from '../../../src/load/artillery/script.js';
import { parseThreshold } from '../../../src/load/results/thresholds.js';
import { startReferenceServer } from '../../../src/reference/index.js';
import { loadCommand } from '../../../src/cli/commands/load.js';
import { scaled } from '../../helpers/time-limits.js';
import { options } from '../helpers.js';

const ARTILLERY = resolve('load/artillery/node_modules/.bin/artillery');
const installed = existsSync(ARTILLERY);
const SKIP_REASON = "load/artillery/node_modules is not installed: run `npm ci --prefix load/artillery` (the README's optional step) to run this test";
if (!installed) console.warn(`tack: skipping the Artillery run of the export: ${SKIP_REASON}`);

const out = mkdtempSync(join(tmpdir(), 'tack-artillery-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('thresholds as Artillery ensure conditions', () => {
  it.each([
    ['p99<20ms', 'http.response_time.p99 < 20'],
    ['p99.9<=1500us', 'http.response_time.p999 <= 1.5'],
    ['p50<1ms', 'http.response_time.p50 < 1'],
    ['p100<1s', 'http.response_time.max < 1000'],
    ['max<1s', 'http.response_time.max < 1000'],
    ['rps>=500', 'http.request_rate >= 500'],
    ['errors==0', '(tack.chains_broken + tack.against_spec + tack.unexpected_status + tack.transport_errors + tack.timeouts) == 0'],
    ['broken==0', 'tack.chains_broken == 0'],
    ['error_rate<1%', '(tack.chains_broken + tack.against_spec + tack.unexpected_status + tack.transport_errors + tack.timeouts) / http.requests * 100 < 1'],
    ['exchange.p99<20ms', 'plugins.metrics-by-endpoint.response_time.exchange.p99 < 20'],
    ['search.max<1s', 'plugins.metrics-by-endpoint.response_time.search.max < 1000'],
  ])('%s → %s', (expr, condition) => {
    expect(ensureExpression(parseThreshold(expr))).toBe(condition);
  });

  it('a percentile Artillery does not report is refused, naming what it has', () => {
    expect(() => ensureExpression(parseThreshold('p99.99<2ms'))).toThrow(/Artillery reports no p99.99; it has p50, p75, p90, p95, p99, p99.9/);
  });

  it('a count on one request kind is refused: Artillery counts nothing of tack per kind', () => {
    expect(() => ensureExpression(parseThreshold('exchange.errors==0'))).toThrow(/can only be a latency/);
  });

  it('correctness is always checked; the thresholds come after', () => {
    const o = { profile: exchangeProfile, connections: 3, durationMs: 2000, thresholds: ['p99<20ms'], failOnErrors: true, timeoutMs: 5000, version: 'test' };
    const conditions = [...artilleryScript(o).matchAll(/- expression: "([^"]+)"/g)].map((m) => m[1]);
    const correctness = ['tack.chains_broken == 0', 'tack.against_spec == 0', 'tack.setup_failed == 0', 'tack.unexpected_status == 0', 'vusers.failed == 0'];
    expect(conditions).toEqual([...correctness, 'http.response_time.p99 < 20']);
    const yaml = artilleryScript(o);
    expect(yaml).toContain('arrivalCount: 3');
    expect(yaml).toContain('tackDurationS: 2');
  });

  const quiet = { write: () => undefined, progress: () => undefined };
  it.each([
    ['--rate', { rate: '100' }],
    ['--shard', { shard: '1/2' }],
    ['--find-capacity', { findCapacity: true }],
    ['--sut', { sut: 'Keycloak' }],
    [':abort', { threshold: ['p99<1s:abort'] }],
  ])('export refuses %s (no meaning in the script)', async (flag, extra) => {
    await expect(loadCommand('export', ['artillery', 'exchange'], options({ out, ...extra }), quiet, {})).rejects.toMatchObject({
      code: 'TACK_ERR_USAGE',
      message: expect.stringContaining(flag),
    });
  });
});

interface Ran {
  readonly code: number | null;
  readonly output: string;
}

function artillery(script: string, env: Record<string, string>): Promise<Ran> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TACK_')));
  return new Promise((done, fail) => {
    const childEnv = { ...clean, ...env, ARTILLERY_DISABLE_TELEMETRY: 'true' };
    const child = spawn(process.execPath, [ARTILLERY, 'run', script], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), scaled(50_000));
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

const title = installed ? 'the export run by Artillery against the reference server' : `the export run by Artillery (skipped: ${SKIP_REASON})`;
describe.skipIf(!installed)(title, () => {
  it('passes on a healthy server and fails with broken chains on rotation-unsafe-under-concurrency', async () => {
    const [healthy, broken] = await Promise.all([startReferenceServer(), startReferenceServer({ faults: ['rotation-unsafe-under-concurrency'] })]);
    try {
      let said = '';
      const code = await loadCommand(
        'export',
        ['artillery', 'exchange'],
        options({ out, connections: 6, duration: '1s', threshold: ['p99<5s', 'errors==0', 'exchange.p99<5s'] }),
        { write: (s) => (said += s), progress: () => undefined },
        {},
      );
      expect(code).toBe(0);
      const script = join(out, 'exchange.artillery.yml');
      expect(said).toContain(script);
      // No secret of the target is in what was written: the processor reads them at run time.
      const written = readFileSync(script, 'utf8') + readFileSync(join(out, 'tack-processor.cjs'), 'utf8');
      for (const k of ['TACK_PARTNER_SECRET', 'TACK_OTHER_PARTNER_SECRET', 'TACK_HOOK_TOKEN', 'TACK_BASE_URL']) expect(written).not.toContain(healthy.env[k]!);

      const [good, bad] = await Promise.all([artillery(script, healthy.env), artillery(script, broken.env)]);
      expect(good.code, good.output).toBe(0);
      expect(good.output).toContain('ok: tack.chains_broken == 0');
      // Each request kind timed apart, and judged on its own.
      expect(good.output).toContain('ok: plugins.metrics-by-endpoint.response_time.exchange.p99 < 5000');
      expect(good.output).toMatch(/tack\.rotations: \.+ [1-9]\d*/);
      expect(good.output).toMatch(/tack\.chains_started: \.+ 6/);

      expect(bad.code, bad.output).not.toBe(0);
      expect(bad.output).toContain('fail: tack.chains_broken == 0');
      expect(bad.output).toMatch(/tack\.chains_broken: \.+ [1-9]/);
      // The processor never prints a token (reference tokens: tpat_, tprt_, at1.).
      expect(good.output + bad.output).not.toMatch(/tpat_|tprt_|at1\./);
    } finally {
      await Promise.all([healthy.close(), broken.close()]);
    }
  });
});
