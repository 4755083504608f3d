/** checkProblem: PARTNER-PROBLEM-DETAILS judged softly on 4xx answers only, one verdict per part of RFC 7807. */
import { describe, expect, it } from 'vitest';
import { checkProblem } from '../../src/steps/problem-details.js';
import { response, stubContext } from './stub-context.js';

const PROBLEM = { 'content-type': 'application/problem+json' };

describe('checkProblem', () => {
  it.each([
    [200, { ok: true }, {}],
    [302, undefined, {}],
    [500, { status: 500 }, {}],
  ])('judges nothing on a %i (the rule is about the 4xx of §7)', (status, body, headers) => {
    const { t, records } = stubContext();
    checkProblem(t, response(status, body, headers), 'create');
    expect(records).toEqual([]);
  });

  it('passes a problem+json object whose status member is the HTTP status', () => {
    const { t, records } = stubContext();
    checkProblem(t, response(409, { title: 'exists', status: 409 }, PROBLEM), 'create twice');
    expect(records.map((r) => [r.how, r.rule, r.ok])).toEqual([
      ['soft', 'PARTNER-PROBLEM-DETAILS', true],
      ['soft', 'PARTNER-PROBLEM-DETAILS', true],
      ['soft', 'PARTNER-PROBLEM-DETAILS', true],
    ]);
    expect(records.map((r) => r.title)).toEqual(['create twice: content type', 'create twice: body', 'create twice: status member']);
  });

  it.each([
    ['plain JSON content type', response(400, { status: 400 }, { 'content-type': 'application/json' }), [false, true, true]],
    ['a status member that is not the HTTP status', response(404, { status: 400 }, PROBLEM), [true, true, false]],
    ['a body that is not JSON', { ...response(401, undefined, PROBLEM), text: 'nope' }, [true, false, true]],
  ])('fails only the part that is wrong: %s', (_what, res, oks) => {
    const { t, records } = stubContext();
    checkProblem(t, res, 'x');
    expect(records.map((r) => r.ok)).toEqual(oks);
    expect(records.every((r) => r.how === 'soft')).toBe(true);
  });
});
