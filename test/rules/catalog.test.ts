/**
 * The client rules in the one catalog: area `client`, judged by `tack client` only. Each has its
 * judge and a fault of the fixture client that breaks it (the client fault matrix runs them);
 * `tack run` neither selects them nor accepts them in --only; `tack rules` lists them.
 */
import { describe, expect, it } from 'vitest';
import { ALL_TESTS } from '../../suites/index.js';
import { CLIENT_JUDGES } from '../../suites/client/index.js';
import { SCENARIOS } from '../../suites/client/scenarios.js';
import { formatRules } from '../../src/cli/commands/rules.js';
import { runCommand } from '../../src/cli/conformance-run.js';
import { selectTests } from '../../src/runner/selection.js';
import { CLIENT_RULES, RULES, SERVER_RULES } from '../../src/rules/catalog.js';
import { CLIENT_FAULTS } from '../../suites/client/client-faults.js';

describe('client rules in the catalog', () => {
  it('are the CLIENT-* rules, area client, and the server rules are all the others', () => {
    expect(CLIENT_RULES.length).toBeGreaterThan(10);
    expect(CLIENT_RULES.every((r) => r.id.startsWith('CLIENT-') && r.area === 'client')).toBe(true);
    expect(SERVER_RULES.some((r) => r.area === 'client' || r.id.startsWith('CLIENT-'))).toBe(false);
    expect(CLIENT_RULES.length + SERVER_RULES.length).toBe(RULES.length);
  });

  it('each has exactly one judge, and each judge names the scenarios of its profiles', () => {
    expect(CLIENT_JUDGES.map((j) => j.rule).sort()).toEqual(CLIENT_RULES.map((r) => r.id).sort());
    for (const judge of CLIENT_JUDGES) {
      for (const id of judge.scenarios ?? []) {
        const scenario = SCENARIOS.find((s) => s.id === id);
        // A scenario of one of its profiles (two-runs is personal-token only, and meets the 401 rule there).
        expect(
          judge.profiles.some((p) => scenario?.profiles.includes(p)),
          `${judge.rule} in ${id}`,
        ).toBe(true);
      }
    }
  });

  it('each is broken by a fault of the fixture client, in every profile that judges it', () => {
    for (const judge of CLIENT_JUDGES) {
      const faults = CLIENT_FAULTS.filter((f) => f.rule === judge.rule);
      expect(faults.length, judge.rule).toBeGreaterThan(0);
      const proven = new Set(faults.flatMap((f) => f.profiles));
      expect(
        judge.profiles.filter((p) => !proven.has(p)),
        judge.rule,
      ).toEqual([]);
    }
  });

  it('every part a test declares (TestCase.parts) is of a rule the test declares', () => {
    const stray = ALL_TESTS.flatMap((t) => (t.parts ?? []).filter((p) => !t.rules.includes(p.rule)).map((p) => `${t.id}: ${p.rule}`));
    expect(stray).toEqual([]);
  });

  it('tack run does not select them and refuses them in --only', async () => {
    const selection = selectTests(ALL_TESTS, []);
    expect(selection.rules.filter((id) => id.startsWith('CLIENT-'))).toEqual([]);
    const run = runCommand({ only: ['CLIENT-BEARER'], runs: 1, strict: false, reports: 'reports', fault: [], quiet: true }, () => undefined, {});
    await expect(run).rejects.toThrow(/client rules, which tack client judges/);
  });

  it('tack rules lists them under their area', () => {
    const text = formatRules();
    expect(text).toContain('Client under test');
    for (const rule of CLIENT_RULES) expect(text).toContain(rule.id);
  });
});
