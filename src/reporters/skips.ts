/**
 * The rules a run did not check, grouped by why, for the places a person reads (the console, summary.md,
 * tack doctor): "16 rules: needs the test hook (TACK_HOOK_URL, TACK_HOOK_TOKEN): clock, users, …"
 * instead of sixteen lines that say it again. results.json and report.html keep every rule's whole
 * reason.
 *
 * The test hook's capabilities are gathered into one group whatever each rule lacks of them; a rule
 * partly checked is grouped by the part not seen (the count of checks that passed left out).
 */
import { plural } from '../text/plural.js';
interface SkipGroup {
  /** Why, once for the group (with the hook's missing capabilities listed). */
  readonly why: string;
  readonly rules: readonly string[];
}

const HOOK = /(needs the test hook \(TACK_HOOK_URL, TACK_HOOK_TOKEN\) with|the target's test hook does not offer) the (.+?) capabilit(?:y|ies)/g;

export function groupSkips(rules: readonly { readonly id: string; readonly reason: string }[]): SkipGroup[] {
  const groups = new Map<string, { rules: string[]; capabilities: string[] }>();
  for (const rule of rules) {
    const capabilities: string[] = [];
    const key = rule.reason
      .replace(HOOK, (_all, what: string, list: string) => {
        for (const c of list.split(/, | and /)) capabilities.push(c);
        return what.replace(/ with$/, '');
      })
      .replace(/^partly checked \(\d+ checks? passed\); /, 'partly checked; ');
    const group = groups.get(key) ?? { rules: [], capabilities: [] };
    group.rules.push(rule.id);
    for (const c of capabilities) if (!group.capabilities.includes(c)) group.capabilities.push(c);
    groups.set(key, group);
  }
  return [...groups]
    .map(([key, g]) => ({ why: g.capabilities.length > 0 ? `${key}: ${g.capabilities.join(', ')}` : key, rules: g.rules }))
    .sort((a, b) => b.rules.length - a.rules.length);
}

/** Lines for a console: each group's count and why, then its rules, wrapped. */
export function skipLines(groups: readonly SkipGroup[], indent = '  '): string[] {
  return groups.flatMap((g) => [`${indent}${plural(g.rules.length, 'rule')}: ${g.why}`, ...wrapIds(g.rules, `${indent}    `)]);
}

/** Rule ids, comma-separated, in lines of at most 100 characters. */
export function wrapIds(ids: readonly string[], indent = '    '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const id of ids) {
    if (line && indent.length + line.length + id.length + 2 > 100) {
      lines.push(indent + line);
      line = '';
    }
    line = line ? `${line}, ${id}` : id;
  }
  if (line) lines.push(indent + line);
  return lines;
}
