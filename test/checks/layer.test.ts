/**
 * The check layer's own rules: every verdict in the suites and scenarios comes from a check that
 * looks at something (no finding with a constant condition), and the checks are rule-agnostic
 * (src/checks/ names no rule: the caller does).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/harness/http.js';
import { RULES } from '../../src/rules/catalog.js';
import { noApiToken } from '../../src/checks/generation.js';
import { ROOT as root, sources } from '../helpers/sources.js';
const files = ['src/checks', 'src/steps', 'suites', 'scenarios'].flatMap((d) => sources(join(root, d)));

describe('the check layer', () => {
  it('no check has a constant condition', () => {
    const constant = /finding\(\s*(true|false)\s*,|\bok:\s*(true|false)\b|\.(check|soft)\([^)]*,\s*(true|false)\s*,/;
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => constant.test(line))
        .map(([, i]) => `${relative(root, file)}:${i + 1}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the hook's API-token generation is refused only by a 4xx without a token: a 5xx is no refusal", () => {
    const res = (status: number, json?: unknown): HttpResponse => ({ status, headers: {}, text: JSON.stringify(json ?? {}), json, ms: 1, seq: 1 });
    expect(noApiToken(res(403, { error: 'feature_disabled' })).ok).toBe(true);
    expect(noApiToken(res(500, { error: 'boom' })).ok).toBe(false);
    expect(noApiToken(res(201, { apiToken: 'tpat_x' })).ok).toBe(false);
    expect(noApiToken(res(403, { apiToken: 'tpat_x' })).ok).toBe(false);
  });

  it('the checks name no rule: the test that calls one does', () => {
    const ids = RULES.map((r) => r.id);
    const offenders = sources(join(root, 'src', 'checks')).filter((file) => ids.some((id) => readFileSync(file, 'utf8').includes(`'${id}'`)));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });
});
