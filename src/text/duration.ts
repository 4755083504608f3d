/** Durations in words, for titles and reasons. */

/** `300 s`, `30 d`, `89 d 23 h 59 min 55 s`: a readable duration. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s === 0) return '0 s';
  const sign = s < 0 ? '-' : '';
  let rest = Math.abs(s);
  if (rest < 3600) return `${sign}${rest} s`;
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
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
