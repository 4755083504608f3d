/**
 * Checks on an answer at their edges (src/checks/response.ts, refusal.ts, problem.ts): each case pins
 * down what a weaker check would pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import { problemMediaType, problemStatusMember } from '../../src/checks/problem.js';
import { noActionUrl, refusedWithoutToken } from '../../src/checks/refusal.js';
import { emptyBody, isClientError, isSuccess, jsonMediaType, jsonObjectBody, mediaType, status, success } from '../../src/checks/response.js';
import { answer } from './table.js';

describe('checks on an answer at their edges (src/checks/response.ts)', () => {
  it('2xx is 200 to 299, 4xx is 400 to 499', () => {
    expect([199, 200, 299, 300].map((s) => isSuccess(answer(s)))).toEqual([false, true, true, false]);
    expect([399, 400, 499, 500].map((s) => isClientError(answer(s)))).toEqual([false, true, true, false]);
    expect(success(answer(204)).ok).toBe(true);
  });

  it('a status among several is any of them, and the expected text names them', () => {
    expect(status(answer(404), [400, 404]).ok).toBe(true);
    expect(status(answer(404), [400, 404]).expected).toBe('one of 400, 404');
    expect(status(answer(404), 404).expected).toBe('404');
  });

  it('a media type is read without parameters, spaces or letter case; +json is JSON', () => {
    expect(mediaType(answer(200, { headers: { 'content-type': ' Application/JSON ; charset=utf-8' } }))).toBe('application/json');
    expect(jsonMediaType(answer(200, { headers: { 'content-type': 'application/vnd.acme+json' } })).ok).toBe(true);
    expect(jsonMediaType(answer(200, { headers: { 'content-type': 'text/json5' } })).ok).toBe(false);
  });

  it('JSON null and a JSON array are not a JSON object', () => {
    expect(jsonObjectBody(answer(200, { json: null, text: 'null' })).ok).toBe(false);
    expect(jsonObjectBody(answer(200, { json: [], text: '[]' })).ok).toBe(false);
    expect(jsonObjectBody(answer(200, { json: {} })).ok).toBe(true);
  });

  it('a body of spaces only is empty', () => {
    expect(emptyBody(answer(204, { text: ' \n' })).ok).toBe(true);
    expect(emptyBody(answer(204, { text: ' x' })).ok).toBe(false);
  });
});

describe('refusals at their edges (src/checks/refusal.ts)', () => {
  it('a 4xx carrying a token is no refusal; a 5xx without one is none either', () => {
    expect(refusedWithoutToken(answer(400), 'access_token').ok).toBe(false);
    expect(refusedWithoutToken(answer(500), undefined).ok).toBe(false);
    expect(refusedWithoutToken(answer(400), undefined).ok).toBe(true);
  });

  it('an action URL is judged on a 2xx or 3xx only: a 4xx holds, a 5xx without one does not', () => {
    expect(noActionUrl(answer(404), 'href').ok).toBe(true);
    expect(noActionUrl(answer(200), 'href').ok).toBe(false);
    expect(noActionUrl(answer(399), undefined).ok).toBe(true);
    expect(noActionUrl(answer(500), undefined).ok).toBe(false);
  });
});

describe('problem details at their edges (src/checks/problem.ts)', () => {
  it('problem+json is the media type, nothing near it', () => {
    expect(problemMediaType(answer(400, { headers: { 'content-type': 'application/problem+json; charset=utf-8' } })).ok).toBe(true);
    expect(problemMediaType(answer(400, { headers: { 'content-type': 'application/json' } })).ok).toBe(false);
  });

  it('a body that is not JSON has no status member; one that differs fails', () => {
    expect(problemStatusMember(answer(400, { text: 'oops' })).ok).toBe(true);
    expect(problemStatusMember(answer(400, { json: { status: '400' } })).ok).toBe(false);
  });
});
