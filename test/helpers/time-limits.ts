/**
 * Time limits of tack's own tests that scale with the machine, so that a verdict never depends on
 * its speed: a limit is what an idle machine needs with room to spare, times a factor.
 *
 * The factor is TACK_TEST_TIME_FACTOR when set (a slow CI runner sets it once); otherwise the load
 * per core at the moment the limit is taken (the last minute's load average over the cores): 1 on an
 * idle machine, 7.5 on a 2-core machine at load 15. Never below 1, at most 20. Windows reports no
 * load average: 1 there unless the variable says otherwise.
 *
 * What scales: the "ends in bounded time" bounds (a hang that must end, measured in wall time), the
 * request timeouts tests give targets that answer (a healthy answer must never turn into a timeout),
 * and vitest's own per-test limits. What does not: the limit a test sets on purpose to be exceeded
 * (a server that hangs, or answers after a delay longer than the request timeout: that delay is
 * derived from the timeout it must exceed).
 */
import { availableParallelism, loadavg } from 'node:os';

const MAX_FACTOR = 20;

export function timeFactor(env: NodeJS.ProcessEnv = process.env): number {
  const set = env['TACK_TEST_TIME_FACTOR'];
  if (set !== undefined && set !== '') {
    const n = Number(set);
    if (!Number.isFinite(n) || n < 1) throw new Error(`TACK_TEST_TIME_FACTOR must be a number of at least 1, e.g. 3 (got ${set})`);
    return Math.min(n, MAX_FACTOR);
  }
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.min(MAX_FACTOR, Math.max(1, perCore));
}

/** `ms` on an idle machine, scaled to this one now (whole milliseconds). */
export function scaled(ms: number): number {
  return Math.round(ms * timeFactor());
}
