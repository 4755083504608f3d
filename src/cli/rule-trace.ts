/**
 * Where each rule lives, computed from the code: the tests that declare it (suites and scenarios,
 * ALL_TESTS), the lines of the steps, suites and scenarios that name it (its check sites: a grep
 * for the id finds the same lines), the reference faults that break it, and what its tests need to
 * run (variables, hook capabilities, a browser). `tack rules` prints it: in a checkout it computes
 * it from the sources; the package ships it computed at build time (scripts/build-rule-trace.ts,
 * commands/rules.ts TRACE_FILE), since it ships no sources to read.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_FAULTS } from '../../suites/client/client-faults.js';
import { CLIENT_JUDGES } from '../../suites/client/index.js';
import { SCENARIOS as CLIENT_SCENARIOS } from '../../suites/client/scenarios.js';
import { ALL_TESTS } from '../../suites/index.js';
import type { TestCase } from '../runner/test-case.js';
import { FAULTS } from '../reference/faults.js';
import { RULES, type Rule } from '../rules/catalog.js';
import { needText } from '../runner/needs.js';

export interface RuleTrace extends Rule {
  readonly tests: readonly { readonly id: string; readonly title: string; readonly needs: readonly string[] }[];
  /** `path:line` of every line of the steps, suites and scenarios that names the rule. */
  readonly checkSites: readonly string[];
  /** Reference faults that break the rule (for a client rule: the faults of tack's own faulty client). */
  readonly faults: readonly string[];
  /** Reference faults under which the rule may also change (their declared collateral). */
  readonly collateralOf: readonly string[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Folders whose lines are check sites. */
const SITE_FOLDERS = ['src/steps', 'suites', 'scenarios'];

/** What the parts of a test's check of `rule` need beyond the test's own needs. */
function partNeeds(test: TestCase, rule: string): string[] {
  return (test.parts ?? []).filter((p) => p.rule === rule).map((p) => `for "${p.title}": ${p.needs.map(needText).join('; ')}`);
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every line of the suites and scenarios that names a rule id, by id. */
function checkSites(): Map<string, string[]> {
  const sites = new Map<string, string[]>();
  const id = /'([A-Z]+(?:-[A-Z0-9]+)+)'/g;
  for (const file of SITE_FOLDERS.flatMap((f) => files(join(ROOT, f)))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const match of line.matchAll(id)) {
          const list = sites.get(match[1]!) ?? [];
          list.push(`${relative(ROOT, file)}:${i + 1}`);
          sites.set(match[1]!, list);
        }
      });
  }
  return sites;
}

/** A client rule is judged by one judge over the scenarios `tack client` plays. */
function clientTests(id: string): RuleTrace['tests'] {
  return CLIENT_JUDGES.filter((j) => j.rule === id).map((j) => {
    const scenarios = CLIENT_SCENARIOS.filter((s) => j.scenarios === undefined || j.scenarios.includes(s.id)).map((s) => s.id);
    return {
      id: `client/${j.profiles.join('+')}`,
      title: `judged in the scenarios ${scenarios.join(', ')}`,
      needs: j.profiles.map((p) => `tack client ${p} -- <command>`),
    };
  });
}

export function ruleTraces(ids?: readonly string[]): RuleTrace[] {
  const sites = checkSites();
  return RULES.filter((r) => ids === undefined || ids.length === 0 || ids.includes(r.id)).map((rule) => ({
    ...rule,
    tests:
      rule.area === 'client'
        ? clientTests(rule.id)
        : ALL_TESTS.filter((t) => (t.rules as readonly string[]).includes(rule.id)).map((t) => ({
            id: t.id,
            title: t.title,
            needs: [...t.needs.map(needText), ...partNeeds(t, rule.id)],
          })),
    checkSites: [...new Set(sites.get(rule.id) ?? [])],
    faults:
      rule.area === 'client'
        ? CLIENT_FAULTS.filter((f) => f.rule === rule.id).map((f) => `${f.fault} (tack's faulty client)`)
        : FAULTS.filter((f) => (f.rules as readonly string[]).includes(rule.id)).map((f) => f.name),
    collateralOf: FAULTS.filter((f) => (f.collateral ?? []).some((c) => (c.rules as readonly string[]).includes(rule.id))).map((f) => f.name),
  }));
}
