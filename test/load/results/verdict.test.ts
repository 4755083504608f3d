/**
 * The verdict of a load run (src/load/results/verdict.ts), from counts alone: correctness fails
 * (exit 1) before thresholds (exit 4), a target that never answered is unreachable (exit 2), and
 * --no-fail-on-errors lets unexpected answers pass while a broken chain still fails.
 */
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/harness/errors.js';
import { judgeLoad, specViolations } from '../../../src/load/results/verdict.js';
import { type Counts, emptyCounts, type LoadResult, type Threshold } from '../../../src/load/types.js';

type Draft = Omit<LoadResult, 'verdict'>;

function result(measured: Partial<Counts>, { failOnErrors = true, breaks = [] as LoadResult['breaks'] } = {}): Draft {
  return {
    latency: { byClass: {} },
    warmup: emptyCounts(),
    measured: { ...emptyCounts(), ...measured },
    measuredS: 1,
    breaks,
    settings: { failOnErrors },
  } as unknown as Draft;
}

const breached = (expr: string, source: Threshold['source'] = 'cli'): Threshold => ({ expr, ok: false, actual: '2s', source });
const held: Threshold = { expr: 'p99<1s', ok: true, actual: '1ms', source: 'profile' };

describe('judgeLoad', () => {
  it.each([
    ['answers only, thresholds held: exit 0', result({ responses: 100 }), [held], EXIT.ok],
    ['an unexpected non-2xx fails the run', result({ responses: 100, non2xx: 1 }), [held], EXIT.mustFailed],
    ['--no-fail-on-errors lets it pass', result({ responses: 100, non2xx: 1 }, { failOnErrors: false }), [held], EXIT.ok],
    ['a breached threshold exits 4', result({ responses: 100 }), [breached('p99<1ms')], EXIT.threshold],
    ['correctness wins over a breached threshold', result({ responses: 100, timeouts: 1 }), [breached('p99<1ms')], EXIT.mustFailed],
    ['no answer at all is unreachable', result({ timeouts: 3, errors: 2 }), [held], EXIT.unreachable],
    ['a broken chain fails even with --no-fail-on-errors', result({ responses: 10, broken: 1 }, { failOnErrors: false }), [held], EXIT.mustFailed],
  ] as const)('%s', (_name, draft, thresholds, exitCode) => {
    expect(judgeLoad(draft, thresholds).exitCode).toBe(exitCode);
  });

  it('lists every reason: correctness first, then breached thresholds and baseline regressions by name', () => {
    const verdict = judgeLoad(result({ responses: 100, non2xx: 2 }), [breached('p99<1ms'), breached('baseline p99 +20%', 'baseline')]);
    expect(verdict.reasons).toEqual([
      '2 unexpected non-2xx answer(s)',
      'threshold breached: p99<1ms (actual 2s)',
      'baseline regression: baseline p99 +20% (actual 2s)',
    ]);
  });

  it('an unreachable target says so with its timeouts and transport errors', () => {
    expect(judgeLoad(result({ timeouts: 3, errors: 2 }), []).reasons[0]).toBe('the target did not answer (3 timeout(s), 2 transport error(s))');
  });

  it('a lost chain comes right after the broken ones', () => {
    const reasons = judgeLoad(result({ responses: 10, broken: 1, lost: 1 }), []).reasons;
    expect(reasons[0]).toMatch(/^rotation broke under load/);
    expect(reasons[1]).toMatch(/^1 chain\(s\) lost their token/);
  });
});

describe('specViolations', () => {
  it('a broken chain names the first break: chain, time, rotations and error', () => {
    const breaks = [{ chain: 'chain 4', atS: 1.234, afterRotations: 7, error: 'invalid_grant', cause: 'rotation' }] as unknown as LoadResult['breaks'];
    expect(specViolations(result({ responses: 10, broken: 1 }, { breaks }))).toEqual([
      'rotation broke under load: 1 chain(s) had their current token refused; first: chain 4 at 1.23 s after 7 rotation(s) (invalid_grant)',
    ]);
  });

  it('unexpected answers and timeouts are no spec violation: load may cause them', () => {
    expect(specViolations(result({ responses: 10, non2xx: 5, timeouts: 2 }))).toEqual([]);
  });
});
