/**
 * What one check saw: whether it holds, what it expected and what it got, both as short,
 * printable text (never a secret: callers describe tokens by kind, not by value).
 *
 * Checks (`src/checks/`) return findings and know nothing of rules; the test that calls one
 * records it under a rule, with a title, as a hard or a soft check (`TestContext.check` / `soft`).
 */

export interface Finding {
  readonly ok: boolean;
  readonly expected: string;
  readonly actual: string;
  /** A count of a batch sent together held to a bound (race.ts): what a reproduce script counts again. */
  readonly counted?: CountedBound;
}

/** `returned`: answers of the batch that returned a token; `alive`: tokens it returned that still exchanged afterwards. */
export interface CountedBound {
  readonly bound: number;
  readonly of: 'returned' | 'alive';
}

export function finding(ok: boolean, expected: string, actual: string): Finding {
  return { ok, expected, actual };
}
