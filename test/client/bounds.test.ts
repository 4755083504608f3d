/**
 * A client that does not do its work ends in bounded time with a clear verdict, never `passed`:
 * one that sends nothing is `error` ("the client did nothing"), one that hangs is stopped at
 * --run-timeout (its whole process group) and the rest cut at --deadline, one that floods is cut
 * off at --max-requests, a command that cannot start is `error`. And the client gets the contract's
 * PAYROLL_* variables, nothing of tack's, with stdin closed.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MISBEHAVING, runClientInProcess } from './helpers.js';
import { scaled } from '../helpers/time-limits.js';

const node = process.execPath;

describe.concurrent('tack client bounds', () => {
  it('a client that exits at once having sent nothing: every rule error, exit 2', async () => {
    const run = await runClientInProcess('partner-key', [node, MISBEHAVING, '--mode=inert']);
    expect(run.exit).toBe(2);
    expect(run.doc.rules.every((r) => r.status === 'error' && r.reason.includes('the client did nothing'))).toBe(true);
    expect(run.out).toContain('INCOMPLETE');
  });

  it('a command that cannot be started: every rule error, naming why', async () => {
    const run = await runClientInProcess('personal-token', ['/nonexistent/payroll-sync']);
    expect(run.exit).toBe(2);
    expect(run.doc.rules.every((r) => r.status === 'error' && r.reason.includes('could not be started: ENOENT'))).toBe(true);
  });

  it('a client that hangs is stopped at --run-timeout with everything it started; --deadline bounds the whole run', async () => {
    const run = await runClientInProcess('personal-token', [node, MISBEHAVING, '--mode=hang'], { runTimeout: 1, deadline: 2 });
    expect(run.ms).toBeLessThan(scaled(8_000));
    expect(run.exit).toBe(2);
    const ends = run.doc.client!.scenarios.map((s) => (s.notPlayed !== undefined ? 'not played' : s.runs.map((r) => r.end).join(',')));
    expect(ends[0]).toBe('timed-out');
    expect(ends.at(-1)).toBe('not played');
    expect(run.doc.rules.every((r) => r.status === 'error')).toBe(true);
    expect(run.out).toContain('TACK_ERR_RUN_DEADLINE');
    // The hanging client's own child was stopped with it.
    const processes = execFileSync('ps', ['-eo', 'args']).toString().split('\n');
    const left = processes.filter((line) => line.includes('setInterval(() => {}, 1000)') && !line.includes('ps -eo'));
    expect(left).toEqual([]);
  });

  it('a client that floods is cut off at --max-requests, and what it sent is judged', async () => {
    const run = await runClientInProcess('partner-key', [node, MISBEHAVING, '--mode=flood'], { maxRequests: 15 });
    // Bounded, not fast: 7 runs of 15 requests each; the limit only catches a run that was not cut off.
    expect(run.ms).toBeLessThan(scaled(40_000));
    const runs = run.doc.client!.scenarios.flatMap((s) => s.runs);
    expect(runs.every((r) => r.end === 'cut-off' && r.requests === 15)).toBe(true);
    expect(run.rules.get('CLIENT-BEARER')!.status).toBe('failed');
    expect(run.rules.get('CLIENT-EXIT-STATUS')!.reason).toContain('was cut off (--max-requests)');
    expect(run.doc.rules.some((r) => r.status === 'passed')).toBe(false);
  });

  it("the client gets the contract's PAYROLL_* variables and PATH/HOME, nothing of tack's, and stdin at end of file", async () => {
    const env = { ...process.env, TACK_PARTNER_SECRET: 'tack-own-secret-value', PAYROLL_EXTRA: 'x', EXTRA_FOR_CLIENT: 'y' };
    const partner = ['PAYROLL_PARTNER_CLIENT_ID', 'PAYROLL_PARTNER_HEADERS', 'PAYROLL_PARTNER_SECRET', 'PAYROLL_USER_EMAIL'];
    for (const [profile, expected] of [
      ['personal-token', ['PAYROLL_API_TOKEN_FILE', 'PAYROLL_BASE_URL', 'PAYROLL_IDENTITY_URL']],
      ['partner-key', ['PAYROLL_BASE_URL', 'PAYROLL_IDENTITY_URL', ...partner]],
    ] as const) {
      const run = await runClientInProcess(profile, [node, MISBEHAVING, '--mode=env'], { passEnv: ['EXTRA_FOR_CLIENT'] }, env);
      const seen = JSON.parse(run.doc.client!.scenarios[0]!.runs[0]!.stdout) as { names: string[]; stdin: string };
      expect(seen.names.filter((n) => n.startsWith('PAYROLL_'))).toEqual(expected);
      expect(seen.names.filter((n) => n.startsWith('TACK_') || n === 'NODE_OPTIONS' || n.startsWith('VITEST'))).toEqual([]);
      expect(seen.names).toContain('PATH');
      expect(seen.names).toContain('EXTRA_FOR_CLIENT');
      expect(seen.stdin).toBe('end of file');
    }
  });
});
