/**
 * Checks on what a client did, counted: how many requests of a kind, whether two values it sent
 * are the same. Each knows only what it expects; the judge that
 * calls it names the rule and the title and says what is counted.
 */
import { finding, type Finding } from './finding.js';
import { plural } from '../text/plural.js';
import { describeRequest, type ObservedRequest } from './observed-request.js';

/** At most `max` of `what` among `requests`. */
export function atMost(requests: readonly ObservedRequest[], max: number, what: string): Finding {
  return finding(requests.length <= max, max === 0 ? `no ${what}` : `at most ${plural(max, what)}`, counted(requests, what));
}

/** Exactly `n` of `what` among `requests`. */
export function exactly(requests: readonly ObservedRequest[], n: number, what: string): Finding {
  return finding(requests.length === n, plural(n, what), counted(requests, what));
}

/** `actual` is the value `expected` names (`shown`: how the expected value is described; neither is printed). */
export function sameValue(actual: string | undefined, expected: string, shown: string, otherwise: string): Finding {
  return finding(actual === expected, shown, actual === undefined ? 'nothing' : actual === expected ? shown : otherwise);
}

function counted(requests: readonly ObservedRequest[], what: string): string {
  const list = requests.slice(0, 4).map(describeRequest).join(', ');
  return requests.length === 0 ? `no ${what}` : `${plural(requests.length, what)}: ${list}${requests.length > 4 ? ', …' : ''}`;
}
