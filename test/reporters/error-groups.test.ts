import { describe, expect, it } from 'vitest';
import { groupErrors } from '../../src/reporters/error-groups.js';
import type { ReportRule } from '../../src/reporters/results-schema.js';

const rule = (id: string, status: ReportRule['status'], reason: string) => ({ id, status, reason }) as ReportRule;
const refused = 'TACK_ERR_USER_PASSWORD: the sign-in page did not accept TACK_USER_PASSWORD for a@b.example';
const notTyped = 'TACK_ERR_USER_PASSWORD: not typed again';

describe('groupErrors', () => {
  it('says one cause of many errors once, with the first test that met it, and keeps the rest in order', () => {
    const rules = [
      rule('A', 'error', `t/one not run: ${notTyped}`),
      rule('B', 'failed', 'got 200'),
      rule('C', 'error', `t/two: ${refused}`),
      rule('D', 'error', `t/three not run: ${notTyped}`),
      rule('E', 'error', 't/four: TACK_ERR_TIMEOUT: no answer'),
    ];
    const { groups, single } = groupErrors(rules);
    expect(groups).toEqual([{ code: 'TACK_ERR_USER_PASSWORD', why: refused, rules: [rules[0], rules[2], rules[3]] }]);
    expect(single.map((r) => r.id)).toEqual(['B', 'E']);
  });

  it.each([
    ['two errors of one cause', [rule('A', 'error', `t not run: ${notTyped}`), rule('B', 'error', `t not run: ${notTyped}`)]],
    ['failures, whatever they say', [1, 2, 3].map((n) => rule(`F${n}`, 'failed', `t: ${refused}`))],
    ['errors without a code', [1, 2, 3].map((n) => rule(`E${n}`, 'error', 't: the test threw'))],
  ])('lists %s one by one', (_what, rules) => {
    expect(groupErrors(rules)).toEqual({ groups: [], single: rules });
  });
});
