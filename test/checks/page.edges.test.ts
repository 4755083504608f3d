/**
 * The page checks at their edges (src/checks/page.ts): each case pins down what a weaker check would
 * pass, found by mutation testing (`npm run mutation`).
 */
import { describe, expect, it } from 'vitest';
import * as page from '../../src/checks/page.js';
import type { Outcome } from '../../src/harness/browser/token-page.js';
import type { Seen, SeenPart } from '../../src/harness/browser/visible-text.js';

const TOKEN = 'tpat_abcdefghijklmnopqrstuvwxyz0123456789';
const where = 'http://acme.localhost:1/account/api-tokens';
const seen = (...parts: SeenPart[]): Seen => ({ parts, unreadable: [], held: '' });
const o = (kind: Outcome['kind']): Outcome => (kind === 'message' ? { kind, where, text: 'Cancelled.' } : { kind, where });

describe('the page checks at their edges (src/checks/page.ts)', () => {
  it('each outcome is said in its own words', () => {
    expect(page.outcomeText(o('password'))).toBe(`a page asking for a password (${where})`);
    expect(page.outcomeText(o('token'))).toBe(`a token on the token page (${where})`);
    expect(page.outcomeText(o('nothing'))).toBe(`neither a password field, a token nor a message of spec §7 (${where})`);
  });

  it('the user-name box is read trimmed and in any letter case; no box is no user', () => {
    expect(page.showsUser('alice@acme.example', 'Password', ' Alice@Acme.example ').ok).toBe(true);
    expect(page.showsUser('alice@acme.example', 'Password', undefined).ok).toBe(false);
    expect(page.showsUser('Alice@Acme.example', 'signed in as alice@acme.example', undefined).ok).toBe(true);
  });

  it('an empty clipboard is nothing copied', () => {
    expect(page.copiedSomething('').ok).toBe(false);
    expect(page.copiedSomething(undefined).ok).toBe(false);
    expect(page.copiedSomething('x').ok).toBe(true);
  });

  it('a token element showing only spaces shows nothing', () => {
    expect(page.displayed('  ').ok).toBe(false);
    expect(page.displayed(undefined).ok).toBe(false);
    expect(page.displayed(' •••• ').ok).toBe(true);
  });

  it('a countdown is read trimmed', () => {
    expect(page.reads(' 2:00 ', '2:00').ok).toBe(true);
    expect(page.reads('2:01', '2:00').ok).toBe(false);
    expect(page.reads(undefined, '2:00').ok).toBe(false);
  });

  it('counting down is a lower reading in minutes and seconds; the same, a higher or no reading is not', () => {
    expect(page.countsDown('1:00', '0:59').ok).toBe(true);
    expect(page.countsDown(' 10:00 ', '9:59').ok).toBe(true);
    expect(page.countsDown('1:00', '1:00').ok).toBe(false);
    expect(page.countsDown('0:59', '1:00').ok).toBe(false);
    expect(page.countsDown(undefined, '0:59').ok).toBe(false);
    expect(page.countsDown('1:00', undefined).ok).toBe(false);
    expect(page.countsDown('x1:00', '0:59').ok).toBe(false);
    expect(page.countsDown('1:00', '0:590').ok).toBe(false);
    expect(page.countsDown('1:30', '1:10').ok).toBe(true);
  });

  it('the same display is the same text once a countdown in it is left aside; an empty one never is', () => {
    expect(page.sameDisplay('tpat_••••  1:59', 'tpat_•••• 1:58').ok).toBe(true);
    expect(page.sameDisplay('tpat_•••• 1:59', 'tpat_••••x 1:58').ok).toBe(false);
    expect(page.sameDisplay('1:59', '1:58').ok).toBe(false);
    expect(page.sameDisplay('12:34x', '12:35x').ok).toBe(false);
    expect(page.sameDisplay('a1:59', 'a1:58').ok).toBe(false);
    expect(page.sameDisplay('tpat 12:34', 'tpat 12:35').ok).toBe(true);
    expect(page.sameDisplay('x-1:59-y', 'x--y').ok).toBe(false);
    expect(page.sameDisplay('a  b 1:59', 'a b 1:58').ok).toBe(true);
    expect(page.sameDisplay('a b', 'ab').ok).toBe(false);
  });

  it('the token is gone only when its element, its masked form and its full value are all out of sight', () => {
    const masked = 'tpat_••••6789';
    expect(page.gone(false, seen(), masked, TOKEN).ok).toBe(true);
    expect(page.gone(true, seen(), masked, TOKEN)).toEqual({ ok: false, expected: expect.any(String), actual: 'the token element is still shown' });
    expect(page.gone(false, seen({ where: 'the text', text: `key ${masked}` }), masked, TOKEN).actual).toBe('the masked token is still in the text');
    expect(page.gone(false, seen({ where: 'a form field', text: TOKEN }), masked, TOKEN).actual).toBe('the full token is in a form field');
    expect(page.gone(false, seen({ where: 'the text', text: 'two  spaces' }), '  ', TOKEN).ok).toBe(true);
    const twice = seen({ where: 'the text', text: masked }, { where: 'a form field', text: masked });
    expect(page.gone(false, twice, masked, TOKEN).actual).toBe('the masked token is still in the text, a form field');
    const full = seen({ where: 'the title', text: TOKEN }, { where: 'an image', text: TOKEN });
    expect(page.gone(false, full, masked, TOKEN).actual).toBe('the full token is in the title, an image');
    expect(page.notShownAgain(false, seen({ where: 'the title', text: TOKEN }), masked, TOKEN).ok).toBe(false);
    expect(page.notShownAgain(false, seen(), masked, TOKEN).ok).toBe(true);
  });

  it('redirected away is another page of the same origin without Generate', () => {
    const tokenPage = 'http://acme.localhost:1/account/api-tokens';
    expect(page.redirectedAway('http://acme.localhost:1/account', tokenPage, false).ok).toBe(true);
    expect(page.redirectedAway('http://acme.localhost:1/account/api-tokens/', tokenPage, false).ok).toBe(false);
    expect(page.redirectedAway('http://other.localhost:1/account', tokenPage, false).ok).toBe(false);
    expect(page.redirectedAway('http://other.localhost:1/account/api-tokens', tokenPage, false)).toEqual({
      ok: false,
      expected: expect.any(String),
      actual: 'http://other.localhost:1/account/api-tokens, another site',
    });
    expect(page.redirectedAway('http://acme.localhost:1/account/api-tokens//', tokenPage, false).ok).toBe(false);
    expect(page.redirectedAway('http://acme.localhost:1/account', tokenPage, true).ok).toBe(false);
  });

  it('no token through the page: none received and no token outcome; no Generate offered holds', () => {
    expect(page.noTokenThroughPage(undefined, false, where).ok).toBe(true);
    expect(page.noTokenThroughPage(undefined, true, where).ok).toBe(false);
    expect(page.noTokenThroughPage(o('token'), false, where).ok).toBe(false);
    expect(page.noTokenThroughPage(o('message'), false, where).ok).toBe(true);
  });

  it('a revoke control or a token list found fails', () => {
    expect(page.noRevokeControl(['Revoke']).ok).toBe(false);
    expect(page.noRevokeControl([]).ok).toBe(true);
    expect(page.noTokenList(['a table of 2 rows']).ok).toBe(false);
    expect(page.noTokenList([]).ok).toBe(true);
  });

  it('the same businesses: an extra one or a missing one fails, and each is named', () => {
    expect(page.sameBusinesses(['1', '2', '2'], ['2', '1'], 'the user').ok).toBe(true);
    expect(page.sameBusinesses(['1', '2', '3'], ['1', '2'], 'the user')).toEqual({ ok: false, expected: expect.any(String), actual: 'also lists 3' });
    expect(page.sameBusinesses(['1'], ['1', '2'], 'the user')).toEqual({ ok: false, expected: expect.any(String), actual: 'misses 2' });
    expect(page.sameBusinesses(['3'], ['1'], 'the user').actual).toBe('also lists 3; misses 1');
    expect(page.sameBusinesses(['3', '4'], ['1', '2'], 'the user').actual).toBe('also lists 3, 4; misses 1, 2');
  });
});
