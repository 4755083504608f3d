/**
 * The reproduce script of a stateful failure (src/reporters/reproduce.ts) replays the whole sequence
 * that led to it, the test hook's users, tokens and clock moves included: run against the target that
 * failed, the failure shows again (exit 1); run against a conformant reference, it does not (exit 0).
 * What the replay made it leaves revoked (the API tokens it obtained), unless KEEP=1.
 * The clock-dependent fault idle-limit-not-reset breaks SIGNIN-IDLE-RESET (a plain test) and
 * SIGNIN-LIFECYCLE (a property: its failing run is replayed).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess, startTarget, type Target } from './helpers.js';
import type { ResultsDocument } from '../../src/reporters/results-schema.js';
import { scaled } from '../helpers/time-limits.js';

const targets: Target[] = [];
const keptDir = mkdtempSync(join(tmpdir(), 'tack-replay-kept-'));
afterAll(async () => {
  for (const t of targets) await t.server.close();
  rmSync(keptDir, { recursive: true, force: true });
});

/** Runs a script with bash and only the variables given (and PATH), in `cwd`; resolves with its exit code and output. */
function bash(script: string, env: Record<string, string>, cwd?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', [script], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: scaled(30_000), cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

const ADDRESSES = ['TACK_BASE_URL', 'TACK_IDENTITY_URL', 'TACK_OTHER_BASE_URL', 'TACK_HOOK_URL', 'TACK_HOOK_TOKEN'] as const;

describe('the reproduce script of a clock-dependent failure', () => {
  it('reproduces it against the failing target, and not against a conformant one', async () => {
    const faulty = await startTarget(['idle-limit-not-reset']);
    const clean = await startTarget([]);
    targets.push(faulty, clean);
    const run = await runInProcess(faulty.env, { only: ['SIGNIN-IDLE-RESET', 'SIGNIN-LIFECYCLE'], seed: 7 });
    expect(run.code).toBe(1);
    const doc = JSON.parse(readFileSync(join(run.runDir, 'results.json'), 'utf8')) as ResultsDocument;
    const lifecycle = doc.rules.find((r) => r.id === 'SIGNIN-LIFECYCLE')!;
    // A lifecycle failure in words: what was expected, what came, at which step, which rule it breaks, the steps.
    expect(lifecycle.reason).toMatch(/got 400 invalid_grant .*, at .* which breaks SIGNIN-IDLE-RESET; the case that fails: 1\. generate a token/);
    expect(lifecycle.reason).not.toContain('counterexample');
    for (const id of ['SIGNIN-IDLE-RESET', 'SIGNIN-LIFECYCLE']) {
      const rule = doc.rules.find((r) => r.id === id)!;
      expect(rule.reproduce?.script).toBe(`reproduce/${id}.sh`);
      const script = join(run.runDir, rule.reproduce!.script!);
      const text = readFileSync(script, 'utf8');
      for (const secret of [faulty.env.TACK_HOOK_TOKEN!, faulty.env.TACK_PARTNER_SECRET!]) expect(text).not.toContain(secret);
      expect(text).toMatch(/POST "\$\{TACK_HOOK_URL\}"'\/clock'/);
      expect(text).toMatch(/REFRESH_TOKEN_1=\$\(field refresh_token\)/);
      expect(readFileSync(join(run.runDir, 'report.html'), 'utf8')).toContain(`reproduce/${id}.sh`);

      const again = await bash(script, { TACK_HOOK_TOKEN: faulty.env.TACK_HOOK_TOKEN! });
      expect(again.code, again.out).toBe(1);
      expect(again.out).toContain('REPRODUCED');
      // Against the conformant target the replayed token stays valid: the replay leaves it revoked, unless KEEP=1.
      const cleanEnv = Object.fromEntries(ADDRESSES.map((name) => [name, clean.env[name]!]));
      const live = clean.server.liveApiTokens();
      const conformant = await bash(script, cleanEnv);
      expect(conformant.code, conformant.out).toBe(0);
      expect(conformant.out).toContain('not reproduced');
      expect(conformant.out).toMatch(/revoked (\d+) of the \1 API token\(s\) this replay obtained/);
      expect(clean.server.liveApiTokens()).toBe(live);
      expect(text).toMatch(/^# .*KEEP=1 keeps them alive for\n# investigation/m);
      const kept = await bash(script, { ...cleanEnv, KEEP: '1' }, keptDir);
      expect(kept.code, kept.out).toBe(0);
      expect(clean.server.liveApiTokens()).toBeGreaterThan(live);
      const [list] = readdirSync(keptDir).filter((name) => name.startsWith('replay-tokens-'));
      expect(kept.out).toContain(`listed in ${list}`);
      expect(statSync(join(keptDir, list!)).mode & 0o777).toBe(0o600);
      for (const token of readFileSync(join(keptDir, list!), 'utf8').trim().split('\n')) clean.server.revokeApiToken(token);
      rmSync(join(keptDir, list!));
      expect(clean.server.liveApiTokens()).toBe(live);
    }
  });
});

describe('the reproduce script of a race', () => {
  it('sends the batch together again and counts what it returned: reproduced on the forking target, not on a conformant one', async () => {
    // A wide store window, so requests bash starts one after another in the background still overlap.
    const faulty = await startTarget(['rotation-forks-under-overlap'], { storeDelayMs: 100 });
    const clean = await startTarget([]);
    targets.push(faulty, clean);
    const run = await runInProcess(faulty.env, { only: ['SIGNIN-ROTATION-ATOMIC'] });
    expect(run.code).toBe(1);
    const doc = JSON.parse(readFileSync(join(run.runDir, 'results.json'), 'utf8')) as ResultsDocument;
    const rule = doc.rules.find((r) => r.id === 'SIGNIN-ROTATION-ATOMIC')!;
    expect(rule.checks.find((c) => !c.ok)?.counted).toEqual({ bound: 1, of: 'alive' });
    const script = join(run.runDir, rule.reproduce!.script!);
    const text = readFileSync(script, 'utf8');
    // The failing round's width: 2, 3 or 8 (the rounds vary it).
    const width = text.match(/^spawn \d+ /gm)?.length ?? 0;
    expect([2, 3, 8]).toContain(width);
    expect(text).toMatch(/^wait$/m);

    const again = await bash(script, { TACK_HOOK_TOKEN: faulty.env.TACK_HOOK_TOKEN! });
    expect(again.code, again.out).toBe(1);
    expect(again.out).toMatch(
      new RegExp(
        `${width} of ${width} answers of the batch returned a token, ${width} different; [2-8] of those still exchanged ` +
          '.*allowed: at most 1 of the tokens returned',
      ),
    );
    const conformant = await bash(script, Object.fromEntries(ADDRESSES.map((name) => [name, clean.env[name]!])));
    expect(conformant.code, conformant.out).toBe(0);
    expect(conformant.out).toMatch(new RegExp(`${width} of ${width} answers of the batch returned a token, ${width} different; 1 of those still exchanged`));
  });
});
