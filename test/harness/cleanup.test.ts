/**
 * The ledger of the API tokens tack generates and its run journal, without a target: what is listed
 * (and synced) before a token is used, how rotations move a family's live token, the token file's
 * chain never listed, a refused revoke reported with why, the journal's file (mode, compaction,
 * removal), and how a later run finds the journals of runs that are gone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findJournals, JOURNAL_FORMAT, JOURNAL_STALE_MS, processSpace, processStart, RunJournal } from '../../src/harness/cleanup/journal.js';
import { TokenLedger } from '../../src/harness/cleanup/ledger.js';

const root = mkdtempSync(join(tmpdir(), 'tack-cleanup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const target = { identityUrl: 'https://id.example/realms/payroll', clientId: 'payroll-portal' };
let dirs = 0;

/** Lines of the journal in `dir` (one journal expected). */
function lines(dir: string): string[] {
  const [name] = readdirSync(dir);
  return readFileSync(join(dir, name!), 'utf8').trim().split('\n').slice(1);
}

function setup(answer: (token: string) => number = () => 200) {
  const dir = join(root, `j${dirs++}`);
  const revoked: string[] = [];
  const ledger = new TokenLedger(new RunJournal(dir, target, 'run-1'), (token) => {
    revoked.push(token);
    return Promise.resolve({ status: answer(token) });
  });
  return { dir, ledger, revoked };
}

describe('the token ledger', () => {
  it('lists a generated token before it is used; a rotation replaces it; the end revokes the newest', async () => {
    const { dir, ledger, revoked } = setup();
    ledger.generated('tok-a', 'hook', 'u@example.com');
    expect(lines(dir)).toEqual(['+"tok-a"']);
    ledger.exchanged('tok-a', 'tok-b');
    expect(lines(dir)).toEqual(['+"tok-a"', '+"tok-b"', '-"tok-a"']);
    await ledger.revokeAll();
    expect(revoked).toEqual(['tok-b']);
    expect(ledger.report()).toMatchObject({ generated: 1, revoked: 1, leftAlive: 0, alive: [], journalKept: false });
    ledger.finish();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a fork: every token exchanges of one token returned at once is listed, journaled and revoked, and what each was exchanged for', async () => {
    const { dir, ledger, revoked } = setup();
    ledger.generated('tok-a', 'hook', 'u@example.com');
    for (const successor of ['tok-b', 'tok-c', 'tok-d']) ledger.exchanged('tok-a', successor);
    ledger.exchanged('tok-c', 'tok-c2');
    expect(lines(dir)).toEqual(['+"tok-a"', '+"tok-b"', '-"tok-a"', '+"tok-c"', '+"tok-d"', '+"tok-c2"', '-"tok-c"']);
    await ledger.revokeAll();
    expect(revoked.sort()).toEqual(['tok-b', 'tok-c2', 'tok-d']);
    expect(ledger.report()).toMatchObject({ generated: 1, revoked: 1, leftAlive: 0 });
  });

  it("never lists the token file's chain, nor what its exchanges return", async () => {
    const { dir, ledger, revoked } = setup();
    ledger.userToken('file-1');
    ledger.exchanged('file-1', 'file-2');
    ledger.exchanged('file-2', 'file-3');
    await ledger.revokeAll();
    expect(revoked).toEqual([]);
    expect(ledger.report().generated).toBe(0);
    ledger.finish();
    expect(existsSync(dir)).toBe(false); // nothing was ever written
  });

  it('a token handed out for one tack did not generate is listed and revoked too', async () => {
    const { ledger, revoked } = setup();
    ledger.exchanged('never-issued', 'handed-out');
    await ledger.revokeAll();
    expect(revoked).toEqual(['handed-out']);
    expect(ledger.report()).toMatchObject({ generated: 1, revoked: 1 });
  });

  it('a refused revoke leaves the token listed, reported alive with why; the journal is kept', async () => {
    const { dir, ledger } = setup((token) => (token === 'tok-x' ? 503 : 200));
    ledger.generated('tok-x', 'page', 'alice@acme.example');
    ledger.generated('tok-y', 'hook');
    await ledger.revokeAll();
    const report = ledger.report();
    expect(report).toMatchObject({ generated: 2, revoked: 1, leftAlive: 1, journalKept: true });
    expect(report.alive).toEqual([{ origin: 'page', user: 'alice@acme.example', reason: 'the revoke call answered 503' }]);
    ledger.finish();
    const [name] = readdirSync(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, name!)).mode & 0o777).toBe(0o600);
    expect(findJournals(dir, target, 'run-2').flatMap((j) => j.tokens)).toEqual(['tok-x']);
  });

  it('a token shown and never read counts as left alive', () => {
    const { ledger } = setup();
    ledger.lost('page', 'alice@acme.example', 'read neither from the traffic nor through Copy');
    expect(ledger.report()).toMatchObject({ generated: 1, revoked: 0, leftAlive: 1 });
  });

  it("takes an earlier run's tokens over, revokes them, and counts them apart", async () => {
    const { dir, ledger, revoked } = setup();
    ledger.adoptEarlier('run-0', '2026-01-01T00:00:00.000Z', ['old-1', 'old-2']);
    expect(lines(dir)).toEqual(['+"old-1"', '+"old-2"']);
    await ledger.revokeEarlier();
    expect(revoked.sort()).toEqual(['old-1', 'old-2']);
    expect(ledger.report()).toMatchObject({ generated: 0, earlierRuns: [{ run: 'run-0', tokens: 2, revoked: 2 }] });
  });
});

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
