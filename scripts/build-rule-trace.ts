/**
 * `npm run build` (and so `npm pack`): writes where each rule lives, computed from the sources
 * (src/cli/rule-trace.ts), into dist/src/cli/rule-trace.json. The installed package ships no
 * sources: `tack rules` reads this file there, so its check sites are the sources' lines, not the
 * compiled files'. A checkout, which runs its sources through tsx, computes the trace when asked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { CATALOG_VERSION } from '../src/rules/catalog.js';
import { TRACE_FILE } from '../src/cli/commands/rules.js';
import { ruleTraces } from '../src/cli/rule-trace.js';

const out = new URL(`../dist/src/cli/${TRACE_FILE}`, import.meta.url);
mkdirSync(new URL('.', out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ catalog: CATALOG_VERSION, rules: ruleTraces() })}\n`);
