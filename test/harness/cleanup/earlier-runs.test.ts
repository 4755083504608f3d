/**
 * revokeEarlierRuns: nothing without a journal directory or a stopped run; the tokens of a stopped
 * run's journal are taken over, its journal removed, the tokens revoked, and one line says so.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { revokeEarlierRuns } from '../../../src/harness/cleanup/earlier-runs.js';
import { JOURNAL_FORMAT, processSpace, processStart, RunJournal } from '../../../src/harness/cleanup/journal.js';
import type { TargetConfig } from '../../../src/harness/target-config.js';
import { Transcript } from '../../../src/harness/transcript.js';

const root = mkdtempSync(join(tmpdir(), 'tack-earlier-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const target = { identityUrl: 'https://id.example/realms/payroll', clientId: 'payroll-portal' } as TargetConfig;
let dirs = 0;

/** A ledger stand-in that keeps what it adopted and answers the report with `revoked` of them revoked. */
function ledger(revoked: (tokens: number) => number) {
  const adopted: { run: string; tokens: readonly string[] }[] = [];
  return {
    adopted,
    adoptEarlier: (run: string, _startedAt: string, tokens: readonly string[]) => adopted.push({ run, tokens }),
    revokeEarlier: () => Promise.resolve(),
    report: () => ({
      earlierRuns: adopted.map((a) => ({ run: a.run, startedAt: '2026-01-01T00:00:00Z', tokens: a.tokens.length, revoked: revoked(a.tokens.length) })),
    }),
  };
}

function session(journalDir: string | undefined, l = ledger((n) => n)) {
  return { journalDir, target, runId: 'run-new', ledger: l as never, transcript: new Transcript() };
}

/** The journal a stopped run left behind, holding `tokens`: its lock is gone (not refreshed), so its run is dead. */
function deadRunJournal(tokens: string[]): { dir: string; file: string } {
  const dir = join(root, `j${dirs++}`);
  mkdirSync(dir, { mode: 0o700 });
  const header = {
    format: JOURNAL_FORMAT,
    ...target,
    run: 'run-old',
    startedAt: new Date().toISOString(),
    host: hostname(),
    space: processSpace(),
    pid: process.pid,
    processStart: processStart(process.pid),
    lock: true,
  };
  const file = join(dir, `${new RunJournal(dir, target, 'run-old').path.split('/').pop()}`);
  writeFileSync(file, `${JSON.stringify(header)}\n${tokens.map((t) => `+${JSON.stringify(t)}`).join('\n')}\n`, { mode: 0o600 });
  return { dir, file };
}

describe('revokeEarlierRuns', () => {
  it('does nothing without a journal directory (the built-in server keeps none)', async () => {
    await expect(revokeEarlierRuns(session(undefined))).resolves.toEqual([]);
  });

  it('does nothing when no stopped run left a journal', async () => {
    const l = ledger((n) => n);
    await expect(revokeEarlierRuns(session(join(root, 'empty'), l))).resolves.toEqual([]);
    expect(l.adopted).toEqual([]);
  });

  it("takes over a stopped run's tokens, removes its journal, and says what was revoked", async () => {
    const { dir, file } = deadRunJournal(['old-1', 'old-2']);
    const l = ledger((n) => n);
    const lines = await revokeEarlierRuns(session(dir, l));
    expect(l.adopted).toEqual([{ run: 'run-old', tokens: ['old-1', 'old-2'] }]);
    expect(existsSync(file)).toBe(false);
    expect(lines).toEqual(['tack: run run-old (started 2026-01-01T00:00:00Z) stopped without revoking 2 API token(s) it generated: revoked 2 now']);
  });

  it('says how many stay listed for the next run when a revoke was refused', async () => {
    const { dir } = deadRunJournal(['old-1', 'old-2']);
    const lines = await revokeEarlierRuns(
      session(
        dir,
        ledger(() => 1),
      ),
    );
    expect(lines[0]).toMatch(/revoked 1 now; 1 could not be revoked and stay listed for the next run$/);
  });
});
