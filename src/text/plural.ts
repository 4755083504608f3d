/** `1 rule`, `2 rules`: a count and its noun, for every text tack prints. */

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
