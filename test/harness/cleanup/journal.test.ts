/**
 * The run journal, without a target: the journal's file (mode, compaction, removal), and how a
 * later run finds the journals of runs that are gone. The ledger that writes it: ./ledger.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findJournals, JOURNAL_FORMAT, JOURNAL_STALE_MS, processSpace, processStart, RunJournal } from '../../../src/harness/cleanup/journal.js';

const root = mkdtempSync(join(tmpdir(), 'tack-cleanup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const target = { identityUrl: 'https://id.example/realms/payroll', clientId: 'payroll-portal' };
let dirs = 0;

/** Lines of the journal in `dir` (one journal expected). */
function lines(dir: string): string[] {
  const [name] = readdirSync(dir);
  return readFileSync(join(dir, name!), 'utf8').trim().split('\n').slice(1);
}

describe('the run journal', () => {
  it('is compacted when mostly dead lines', () => {
    const dir = join(root, `j${dirs++}`);
    const journal = new RunJournal(dir, target, 'run-c');
    journal.add('keep', true);
    for (let i = 0; i < 300; i++) {
      journal.add(`t${i}`, false);
      journal.remove(`t${i}`);
    }
    expect(lines(dir).length).toBeLessThan(300);
    expect(findJournals(dir, target, 'other').flatMap((j) => j.tokens)).toEqual(['keep']);
  });

  it('of this process is alive; of another target it is not found; of a process that is gone it is dead', () => {
    const dir = join(root, `j${dirs++}`);
    new RunJournal(dir, target, 'run-live').add('t', true);
    expect(findJournals(dir, target, 'run-other')).toMatchObject([{ dead: false, tokens: ['t'] }]);
    expect(findJournals(dir, { ...target, clientId: 'other-client' }, 'run-other')).toEqual([]);
    expect(findJournals(dir, target, 'run-live')).toEqual([]); // its own
  });

  /** A journal file as a run with this header would have left it, and its lock refreshed `lockAgeMs` ago (none: undefined). */
  function leftJournal(header: Record<string, unknown>, lockAgeMs: number | undefined): string {
    const dir = join(root, `j${dirs++}`);
    mkdirSync(dir, { mode: 0o700 });
    const full = { format: JOURNAL_FORMAT, ...target, run: 'run-old', startedAt: new Date().toISOString(), lock: true, ...header };
    const file = join(dir, `${new RunJournal(dir, target, 'run-old').path.split('/').pop()}`);
    writeFileSync(file, `${JSON.stringify(full)}\n+"t"\n`, { mode: 0o600 });
    if (lockAgeMs !== undefined) {
      mkdirSync(`${file}.lock`);
      const at = new Date(Date.now() - lockAgeMs);
      utimesSync(`${file}.lock`, at, at);
    }
    return dir;
  }
  const dead = (dir: string) => findJournals(dir, target, 'run-new').map((j) => j.dead);
  const here = { host: hostname(), space: processSpace() };
  const gonePid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

  it("of a reused PID is dead: its lock not refreshed, or the PID now another process's", () => {
    // The PID is alive (this very process) on this host: the lock, not the PID, says the run is gone.
    expect(dead(leftJournal({ ...here, pid: process.pid, processStart: processStart(process.pid) }, 2 * JOURNAL_STALE_MS))).toEqual([true]);
    expect(dead(leftJournal({ ...here, pid: process.pid, processStart: processStart(process.pid) }, undefined))).toEqual([true]);
    // A fresh lock, but the process with that PID started at another time (Linux, where tack can tell).
    if (processStart(process.pid) !== undefined) expect(dead(leftJournal({ ...here, pid: process.pid, processStart: '1' }, 0))).toEqual([true]);
    expect(dead(leftJournal({ ...here, pid: process.pid, processStart: processStart(process.pid) }, 0))).toEqual([false]);
    expect(dead(leftJournal({ ...here, pid: gonePid() }, 0))).toEqual([true]); // killed here: dead at once
  });

  it('of another host (a new container on a kept TACK_JOURNAL_DIR) is alive while its lock is fresh, dead once it is stale', () => {
    const foreign = { host: 'another-container', space: 'another-boot/pid:[1]', pid: process.pid };
    expect(dead(leftJournal(foreign, 0))).toEqual([false]);
    expect(dead(leftJournal(foreign, 2 * JOURNAL_STALE_MS))).toEqual([true]);
    // The same host name in another PID namespace (containers share names): its process cannot be seen from here.
    expect(dead(leftJournal({ ...foreign, host: hostname(), pid: gonePid() }, 0))).toEqual([false]);
  });

  it('of a run that ended with tokens left alive is dead at once (its lock released), so the next run takes them over', () => {
    const dir = join(root, `j${dirs++}`);
    const journal = new RunJournal(dir, target, 'run-ended');
    journal.add('left', true);
    expect(dead(dir)).toEqual([false]);
    expect(journal.finish()).toBe(true);
    expect(findJournals(dir, target, 'run-new')).toMatchObject([{ dead: true, tokens: ['left'] }]);
  });
});
