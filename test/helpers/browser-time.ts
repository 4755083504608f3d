/**
 * Time limits of tests that run tack in Chromium. How long a browser run takes depends on the
 * machine (two cores shared with other jobs: a run of 10 s alone took over 60 s at load average 15),
 * and a test's verdict must not. tack's own steps keep their own limits (each browser action and
 * wait, each request, the run's deadline): they end a hang in bounded time and say where. A test's
 * limit is only a generous whole around them: never under 5 minutes, and more when the machine is
 * busier than its cores as the file starts (`timeFactor`, test/helpers/time-limits.ts, at most 5 here;
 * its own workers make it busier still, after the load average was read: hence the floor).
 */
import { timeFactor } from './time-limits.js';

/** One tack run in Chromium against a local target on an idle 2-core machine takes 5-20 s: generously. */
const ONE_RUN_MS = 30_000;
/** The least limit of a browser test: a run 15 times slower than on an idle machine still ends in it. */
const FLOOR_MS = 300_000;

/** The time limit of a test, or hook, that makes `runs` tack runs in Chromium one after the other. */
export function browserLimitMs(runs = 1): number {
  return Math.max(FLOOR_MS * runs, Math.round(runs * ONE_RUN_MS * 4 * Math.min(5, timeFactor())));
}
