/**
 * Whether a load run passed, and the exit code:
 * - 1 (EXIT.mustFailed) on a correctness failure: a broken or lost chain, an answer against the
 *   spec (a malformed 2xx, no rotation, a young access token refused with 401), and
 *   (unless --no-fail-on-errors) any unexpected non-2xx, transport error or timeout;
 * - 4 (EXIT.threshold) when a threshold or a baseline comparison is breached;
 * - 2 (EXIT.unreachable) when the target never answered at all (only timeouts or transport errors);
 * - 0 otherwise. Correctness wins when both happen; every reason is listed either way.
 * A capacity search (../capacity/capacity-run.ts) judges its steps with this, and fails with exit 1 on the
 * spec violations alone (`specViolations`): a breaking step is a knee, a broken chain is a bug.
 */
import { EXIT } from '../../harness/errors.js';
import { metricsOf } from './metrics.js';
import { describeRotationPolicy } from '../race.js';
import type { LoadResult, Threshold, LoadVerdict } from '../types.js';

/**
 * What the target did against the spec, whatever the load: a chain's current token refused
 * (rotation broke), a race probe that forked a chain where one exchange at a time leaves one usable
 * token, and answers against the spec. These fail every load mode (exit 1), a capacity search too,
 * whatever capacity it found.
 */
export function specViolations(result: Omit<LoadResult, 'verdict'>): string[] {
  const m = metricsOf(result);
  const out: string[] = [];
  if (m.broken > 0) {
    const first = result.breaks.find((b) => b.cause === 'rotation');
    const where = first ? `; first: ${first.chain} at ${first.atS.toFixed(2)} s after ${first.afterRotations} rotation(s) (${first.error})` : '';
    out.push(`rotation broke under load: ${m.broken} chain(s) had their current token refused${where}`);
  }
  if (m.forks > 0) out.push(forkedReason(result, m.forks, m.raceProbes));
  if (m.malformed > 0) out.push(`${m.malformed} answer(s) against the spec: ${againstSpec(result)}`);
  return out;
}

export function judgeLoad(result: Omit<LoadResult, 'verdict'>, thresholds: readonly Threshold[]): LoadVerdict {
  const m = metricsOf(result);
  const correctness = specViolations(result);
  // Broken chains first, then lost ones, then answers against the spec.
  const lost = `${m.lost} chain(s) lost their token after a request of theirs timed out or its connection failed`;
  if (m.lost > 0) correctness.splice(m.broken > 0 ? 1 : 0, 0, lost);
  if (result.settings.failOnErrors) {
    if (m.non2xx > 0) correctness.push(`${m.non2xx} unexpected non-2xx answer(s)`);
    if (m.transportErrors > 0) correctness.push(`${m.transportErrors} transport error(s)`);
    if (m.timeouts > 0) correctness.push(`${m.timeouts} timeout(s)`);
  }
  const answered = result.measured.responses + result.warmup.responses > 0;
  if (!answered && correctness.length === 0) correctness.push('no answer at all was received');
  const breached = thresholds
    .filter((t) => !t.ok)
    .map((t) => `${t.source === 'baseline' ? 'baseline regression' : 'threshold breached'}: ${t.expr} (actual ${t.actual})`);
  // A target that never answered was not measured at all: unreachable (2), as for `tack run`.
  if (!answered && m.broken === 0 && m.malformed === 0) {
    return {
      exitCode: EXIT.unreachable,
      reasons: [`the target did not answer (${m.timeouts} timeout(s), ${m.transportErrors} transport error(s))`, ...correctness, ...breached],
    };
  }
  const exitCode = correctness.length > 0 ? EXIT.mustFailed : breached.length > 0 ? EXIT.threshold : EXIT.ok;
  return { exitCode, reasons: [...correctness, ...breached] };
}

/** A fork, with what a person needs: how many, the policy one at a time, the first chain. */
function forkedReason(result: Omit<LoadResult, 'verdict'>, forks: number, probes: number): string {
  const race = result.race;
  const policy = race?.policy
    ? `, where one exchange at a time ${describeRotationPolicy(race.policy).replace(/^a rotated-out token is/, 'a rotated-out token was')}`
    : '';
  const first = race?.forks[0];
  const where = first
    ? `; first: ${first.chain} at ${first.atS.toFixed(2)} s after ${first.afterRotations} rotation(s) ` +
      `(${first.exchanged} of 2 returned a token, ${first.alive} still exchanged)`
    : '';
  return `rotation forked under concurrency: ${forks} of ${probes} race probe(s) left two usable tokens of one chain${policy}${where}`;
}

/** What the answers against the spec were, most frequent first, from the `malformed: ...` notes. */
function againstSpec(result: Omit<LoadResult, 'verdict'>): string {
  const kinds = new Map<string, number>();
  for (const c of [result.warmup, result.measured]) {
    for (const [note, n] of Object.entries(c.notes)) if (note.startsWith('malformed: ')) kinds.set(note.slice(11), (kinds.get(note.slice(11)) ?? 0) + n);
  }
  const list = [...kinds].sort((a, b) => b[1] - a[1]);
  if (list.length === 0) return 'see the notes';
  return (
    list
      .slice(0, 3)
      .map(([k, n]) => `${k} ×${n}`)
      .join('; ') + (list.length > 3 ? `; and ${list.length - 3} more kind(s)` : '')
  );
}
