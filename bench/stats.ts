/**
 * The bench's ratios, made to survive noise: each round gives one ratio of two figures measured
 * side by side (the rounds interleaved, so a neighbour's burst hits both sides alike), and the
 * ratio reported is the median of the rounds, with their spread (least to most) and a 95%
 * bootstrap confidence interval of that median (a fixed seed: the same rounds give the same
 * interval). When the interval holds 1, the two sides are not told apart: "no measurable difference".
 */

export interface RatioStats {
  readonly rounds: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** 95% bootstrap confidence interval of the median. */
  readonly low: number;
  readonly high: number;
  /** The interval holds 1: the rounds cannot tell the two sides apart. */
  readonly noDifference: boolean;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A small, seeded generator (mulberry32): the interval is the same for the same rounds. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The ratio `top[i] / bottom[i]` of each round, summarised. */
export function ratioStats(top: readonly number[], bottom: readonly number[], resamples = 2000): RatioStats {
  const ratios = top.map((t, i) => t / bottom[i]!).filter((r) => Number.isFinite(r));
  if (ratios.length === 0) return { rounds: 0, median: NaN, min: NaN, max: NaN, low: NaN, high: NaN, noDifference: true };
  const next = random(29);
  const medians: number[] = [];
  for (let n = 0; n < resamples; n++) medians.push(median(ratios.map(() => ratios[Math.floor(next() * ratios.length)]!)));
  medians.sort((a, b) => a - b);
  const low = medians[Math.floor(0.025 * (resamples - 1))]!;
  const high = medians[Math.ceil(0.975 * (resamples - 1))]!;
  return { rounds: ratios.length, median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), low, high, noDifference: low <= 1 && high >= 1 };
}

/** `1.31 (rounds 0.94–1.62, 95% CI 1.12–1.48; 7 rounds)` and, when the interval holds 1, `: no measurable difference`. */
export function describeRatio(s: RatioStats): string {
  if (s.rounds === 0) return 'no round measured';
  const f = (x: number) => x.toFixed(2);
  const what = s.noDifference ? ': no measurable difference' : '';
  return `${f(s.median)} (rounds ${f(s.min)}–${f(s.max)}, 95% CI ${f(s.low)}–${f(s.high)}; ${s.rounds} round(s))${what}`;
}
