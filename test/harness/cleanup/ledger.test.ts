/**
 * The ledger of the API tokens tack generates, without a target: what is listed (and synced) before
 * a token is used, how rotations move a family's live token, the token file's chain never listed,
 * and a refused revoke reported with why. The journal itself: ./journal.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findJournals, RunJournal } from '../../../src/harness/cleanup/journal.js';
import { TokenLedger } from '../../../src/harness/cleanup/ledger.js';

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
