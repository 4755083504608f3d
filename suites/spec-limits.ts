/**
 * The spec's limits (§3, §8), in seconds, and the tolerances tack judges them with: the one place
 * the suites, the scenarios and the lifecycle model read them from.
 *
 * Two tolerances, because a grace window of minutes is normal around a 30-day limit and fatal
 * around a 300-second one: TACK_CLOCK_TOLERANCE_S for the 30- and 90-day limits, and
 * TACK_ACCESS_TOLERANCE_S (at most 15 s, so a lifetime off by more than 5 % always fails) for the
 * access token. Both are at least 1 s: real time runs on top of the hook's clock.
 */
import type { TargetConfig } from '../src/harness/target-config.js';

export const DAY_S = 86_400;
/** Access token lifetime (spec §3, §8). */
export const ACCESS_TOKEN_S = 300;
/** A token left unused this long is expired (spec §8: 30 days, each exchange restarts it). */
export const IDLE_LIMIT_S = 30 * DAY_S;
/** A chain is expired this long after generation, however often it is used (spec §8: 90 days). */
export const ABSOLUTE_LIMIT_S = 90 * DAY_S;
/** A new API token is on screen this long (spec §3, §8: 2 minutes). */
export const TOKEN_DISPLAY_S = 120;

/** The tolerance actually used: the configured one, never below 1 s. */
export function effectiveTolerance(configuredS: number): number {
  return Math.max(1, Math.floor(configuredS));
}

/** Around the 30- and 90-day limits. */
export function clockTolerance(target: Pick<TargetConfig, 'toleranceS'>): number {
  return effectiveTolerance(target.toleranceS);
}

/** Around the 300-second access-token lifetime. */
export function accessTolerance(target: Pick<TargetConfig, 'accessToleranceS'>): number {
  return effectiveTolerance(target.accessToleranceS);
}

/** `300 s`, `30 d`, `89 d 23 h 59 min 55 s`: a readable duration. */
export function fmt(seconds: number): string {
  const s = Math.round(seconds);
  if (s === 0) return '0 s';
  const sign = s < 0 ? '-' : '';
  let rest = Math.abs(s);
  if (rest < 3600) return `${sign}${rest} s`;
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', DAY_S],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${unit}`);
  }
  return sign + parts.join(' ');
}
