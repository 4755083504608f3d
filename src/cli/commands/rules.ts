/**
 * `tack rules [RULE...] [--json]`: the rule catalog. With rule ids, each rule in full: the tests
 * that judge it, the lines that check it, the reference faults that break it, and what its tests
 * need (computed from the code: src/cli/rule-trace.ts). `--json` always carries all of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { TackError } from '../../harness/errors.js';
import { AREAS, CATALOG_VERSION, isRuleId, RULES, type Area } from '../../rules/catalog.js';
import type { RuleTrace } from '../rule-trace.js';

/** The traces the build computed (scripts/build-rule-trace.ts), beside src/cli/rule-trace.ts's compiled form. */
export const TRACE_FILE = 'rule-trace.json';

export function registerRules(program: Command): void {
  program
    .command('rules [ids...]')
    .description('list every rule tack checks; with rule ids, where each is checked, what breaks it and what it needs')
    .option('--json', 'print JSON (tests, check sites, faults and needs of every rule)', false)
    .action(async (ids: string[], opts: { json: boolean }) => {
      const unknown = ids.filter((id) => !isRuleId(id));
      if (unknown.length > 0) throw new TackError('TACK_ERR_USAGE', `unknown rule ids: ${unknown.join(', ')} (see: tack rules)`);
      if (!opts.json && ids.length === 0) return void process.stdout.write(formatRules());
      const traces = await ruleTraces(ids);
      if (opts.json) process.stdout.write(`${JSON.stringify({ catalog: CATALOG_VERSION, rules: traces }, null, 2)}\n`);
      else process.stdout.write(traces.map(formatTrace).join('\n'));
    });
}

/**
 * The traces of `ids` (all when empty): the installed package reads the ones its build computed
 * (TRACE_FILE); a checkout, running its sources, computes them from the
 * sources now (which loads every suite and the fault catalog: only when asked for).
 */
async function ruleTraces(ids: readonly string[]): Promise<RuleTrace[]> {
  const built = new URL(`../${TRACE_FILE}`, import.meta.url);
  if (existsSync(built)) {
    const all = (JSON.parse(readFileSync(built, 'utf8')) as { rules: RuleTrace[] }).rules;
    return all.filter((r) => ids.length === 0 || ids.includes(r.id));
  }
  return (await import('../rule-trace.js')).ruleTraces(ids);
}

export function formatRules(): string {
  const out: string[] = [`tack rule catalog ${CATALOG_VERSION}: ${RULES.length} rules (tack rules RULE says where one is checked)`];
  for (const area of Object.keys(AREAS) as Area[]) {
    out.push('', AREAS[area]);
    for (const r of RULES.filter((x) => x.area === area)) out.push(`  ${r.id.padEnd(30)} ${r.level.padEnd(6)} ${r.section.padEnd(14)} ${r.text}`);
  }
  return `${out.join('\n')}\n`;
}

function formatTrace(r: RuleTrace): string {
  const list = (items: readonly string[]) => (items.length === 0 ? ['  (none)'] : items.map((i) => `  ${i}`));
  return [
    `${r.id} [${r.level}] ${r.section}`,
    `  ${r.text}`,
    'tests that judge it:',
    ...list(r.tests.map((t) => `${t.id}: ${t.title}${t.needs.length > 0 ? `\n    needs ${t.needs.join('; ')}` : ''}`)),
    'check sites:',
    ...list(r.checkSites),
    r.area === 'client'
      ? "faults of tack's own faulty client that break it (test/subjects/clients):"
      : 'reference faults that break it (tack serve --fault NAME):',
    ...list(r.faults.map((f) => f.replace(" (tack's faulty client)", ''))),
    ...(r.collateralOf.length > 0 ? ['may also change under:', ...list(r.collateralOf)] : []),
    '',
  ].join('\n');
}
