/**
 * `tack load` against broken targets ends in bounded time (about its --duration plus one request
 * timeout), never hangs and never reports success. (The load runner is src/load; these tests only
 * pin that it stays bounded and says what went wrong.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommand, type LoadCommandOptions } from '../../src/cli/commands/load.js';
import { isTackError } from '../../src/harness/errors.js';
import { closedPort, type Misbehaviour, startBroken, targetEnv } from './broken-servers.js';
import { scaled } from '../helpers/time-limits.js';

let dir: string;
let pool: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tack-load-broken-'));
  pool = join(dir, 'pool');
  writeFileSync(pool, 'tpat_not_a_real_token_1\ntpat_not_a_real_token_2\n', { mode: 0o600 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  readonly exit: number;
  readonly code: string | undefined;
  readonly text: string;
  readonly ms: number;
}

async function load(profile: string, env: Record<string, string>): Promise<Outcome> {
  const opts: LoadCommandOptions = {
    connections: 2,
    duration: '1s',
    warmup: '0s',
    threshold: [],
    tolerancePct: '20%',
    reports: join(dir, 'reports'),
    allowRemote: false,
    fault: [],
    failOnErrors: true,
    quiet: true,
    tokenPool: pool,
  };
  let text = '';
  const started = performance.now();
  try {
    const exit = await loadCommand(profile, [], opts, { write: (s) => (text += s), progress: (s) => (text += s) }, env);
    return { exit, code: undefined, text, ms: performance.now() - started };
  } catch (error) {
    if (!isTackError(error)) throw error;
    return { exit: error.exitCode, code: error.code, text: `${text}\n${error.message}`, ms: performance.now() - started };
  }
}

describe('tack load against a broken target ends in bounded time and does not pass', () => {
  it('refused connections', async () => {
    const port = await closedPort();
    for (const profile of ['exchange', 'partner-mint']) {
      const out = await load(profile, targetEnv(`http://acme.localhost:${port}`, `http://id.localhost:${port}/realms/payroll`));
      expect(out.exit, out.text).not.toBe(0);
      expect(out.text).toMatch(/refused|unreachable|ECONNREFUSED|not reachable/i);
      expect(out.ms).toBeLessThan(scaled(15_000));
    }
  });

  const cases: [Misbehaviour, RegExp][] = [
    ['hang', /timeout|did not answer/i],
    ['slow', /timeout|did not answer/i],
    ['close', /closed|transport|socket/i],
    ['status-503', /non-2xx|503|down/i],
    ['html-200', /malformed|non-2xx|HTML|JSON|without an access token/i],
  ];
  for (const [mode, words] of cases) {
    it(`${mode}: exchange and partner-mint profiles`, async () => {
      const server = await startBroken(mode);
      try {
        for (const profile of ['exchange', 'partner-mint']) {
          const out = await load(profile, server.env());
          expect(out.exit, `${profile}: ${out.text}`).not.toBe(0);
          // Never an answer at all: unreachable (exit 2), as docs/errors.md says.
          if (mode === 'hang') expect(out.exit, `${profile}: ${out.text}`).toBe(2);
          expect(out.text, profile).toMatch(words);
          // --duration 1s, request timeout 0.3 s (on an idle machine): bounded, whatever the target does (room for a busy machine).
          expect(out.ms, profile).toBeLessThan(scaled(15_000));
        }
      } finally {
        await server.close();
      }
    });
  }

  it('a target that starts hanging mid-run: the run still ends on time', async () => {
    const server = await startBroken('hang', { healthyFirst: 5 });
    try {
      const out = await load('exchange', server.env());
      expect(out.exit).not.toBe(0);
      expect(out.ms).toBeLessThan(scaled(15_000));
    } finally {
      await server.close();
    }
  });
});
