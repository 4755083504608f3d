/** `tack rules [--json]`: the rule catalog. */
import type { Command } from 'commander';
import { AREAS, CATALOG_VERSION, RULES, type Area } from '../../rules/catalog.js';

export function registerRules(program: Command): void {
  program
    .command('rules')
    .description('list every rule tack checks, grouped by area')
    .option('--json', 'print JSON', false)
    .action((opts: { json: boolean }) => {
      process.stdout.write(opts.json ? JSON.stringify({ catalog: CATALOG_VERSION, rules: RULES }, null, 2) + '\n' : formatRules());
    });
}

export function formatRules(): string {
  const out: string[] = [`tack rule catalog ${CATALOG_VERSION}: ${RULES.length} rules`];
  for (const area of Object.keys(AREAS) as Area[]) {
    out.push('', AREAS[area]);
    for (const r of RULES.filter((x) => x.area === area)) out.push(`  ${r.id.padEnd(30)} ${r.level.padEnd(6)} ${r.section.padEnd(14)} ${r.text}`);
  }
  return out.join('\n') + '\n';
}
