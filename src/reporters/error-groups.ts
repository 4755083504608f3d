/**
 * Rules in `error` for one cause, said once: when a configuration mistake found mid-run (a refused
 * TACK_USER_PASSWORD, a hook that stopped answering) stops many tests, the console and summary.md
 * print "20 rules in error: TACK_ERR_USER_PASSWORD: …" and the ids, instead of twenty lines that say
 * it again. results.json, junit.xml and report.html keep every rule's whole reason.
 */
import type { ReportRule } from './results-schema.js';

/** Fewer rules than this with one cause are listed one by one. */
const GROUP_FROM = 3;

/** "<test id>[ not run]: TACK_ERR_CODE: message": the cause is the code. */
const CAUSED = /^\S+?(?: not run)?: (TACK_ERR_[A-Z_]+): (.*)$/s;

interface ErrorGroup {
  readonly code: string;
  /** The cause as the first test that met it said it (not one that was not run because of it). */
  readonly why: string;
  readonly rules: readonly ReportRule[];
}

/** Splits rules that do not hold into groups of errors with one cause and the rest, in their order. */
export function groupErrors(rules: readonly ReportRule[]): { readonly groups: ErrorGroup[]; readonly single: ReportRule[] } {
  const byCode = new Map<string, { whys: string[]; rules: ReportRule[] }>();
  for (const rule of rules) {
    const m = rule.status === 'error' ? CAUSED.exec(rule.reason) : null;
    if (!m) continue;
    const group = byCode.get(m[1]!) ?? { whys: [], rules: [] };
    group.rules.push(rule);
    group.whys.push(`${m[1]}: ${m[2]}`);
    byCode.set(m[1]!, group);
  }
  const groups: ErrorGroup[] = [];
  for (const [code, g] of byCode) {
    if (g.rules.length < GROUP_FROM) continue;
    const first = g.rules.findIndex((r) => !/^\S+? not run: /.test(r.reason));
    groups.push({ code, why: g.whys[Math.max(0, first)]!, rules: g.rules });
  }
  const grouped = new Set(groups.flatMap((g) => g.rules));
  return { groups, single: rules.filter((r) => !grouped.has(r)) };
}
