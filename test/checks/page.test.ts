/**
 * The page checks (src/checks/page.ts): each holds on what the spec asks and fails otherwise,
 * and none shows a token's value.
 */
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/harness/browser/token-page.js';
import { showsSecret } from '../../src/harness/browser/screenshot.js';
import { scrub } from '../../src/harness/browser/token-page.js';
import { Redactor } from '../../src/harness/redactor.js';
import * as page from '../../src/checks/page.js';
import type { Seen, SeenPart } from '../../src/harness/browser/visible-text.js';

const TOKEN = 'tpat_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG.0123456789a';
const where = 'http://acme.localhost:1/account/api-tokens';
const seen = (...parts: SeenPart[]): Seen => ({ parts, unreadable: [], held: parts.map((p) => p.text).join('\n') });
const o = (kind: Outcome['kind']): Outcome => (kind === 'message' ? { kind, where, text: 'API token generation was cancelled.' } : { kind, where });

describe('page checks', () => {
  it('judge what a step led to', () => {
    expect([page.asksForPassword(o('password')).ok, page.asksForPassword(o('token')).ok]).toEqual([true, false]);
    expect([page.tokenShown(o('token')).ok, page.tokenShown(o('nothing')).ok]).toEqual([true, false]);
    expect([page.noTokenShown(o('password')).ok, page.noTokenShown(o('token')).ok]).toEqual([true, false]);
    expect(page.tokenShown(o('message')).actual).toBe(`the message "API token generation was cancelled." (${where})`);
  });

  it('the signed-in user shown in the text or in the user-name box, any letter case', () => {
    expect(page.showsUser('alice@acme.example', 'Signed in as Alice@Acme.example', undefined).ok).toBe(true);
    expect(page.showsUser('alice@acme.example', 'Password', 'alice@acme.example').ok).toBe(true);
    expect(page.showsUser('alice@acme.example', 'Password', '').ok).toBe(false);
  });

  it('a copy is exactly the token, and the report says how it differs without the value', () => {
    expect(page.sameToken(TOKEN, TOKEN).ok).toBe(true);
    for (const [copied, actual] of [
      [TOKEN.slice(0, -1), `the token cut short (${TOKEN.length - 1} of ${TOKEN.length} characters)`],
      [` ${TOKEN}\n`, 'the token with white space around it'],
      ['', 'nothing was copied'],
      [undefined, 'nothing was copied'],
      ['something else entirely', 'another value (23 characters)'],
    ] as const) {
      const found = page.sameToken(copied, TOKEN);
      expect(found.ok).toBe(false);
      expect(found.actual).toBe(actual);
      expect(`${found.expected} ${found.actual}`).not.toContain(TOKEN.slice(5, 20));
    }
    expect([page.copiedSomething('x').ok, page.copiedSomething('').ok, page.copiedSomething(undefined).ok]).toEqual([true, false, false]);
  });

  it('masked: the full value nowhere a person sees it, and where it is shown is said without it', () => {
    expect(page.notInVisibleText(seen({ where: 'the text', text: 'Your token tpat_••••••••9a1b' }), TOKEN).ok).toBe(true);
    expect(page.notInVisibleText(seen({ where: 'a form field', text: '•'.repeat(TOKEN.length) }), TOKEN).ok).toBe(true);
    const shown = page.notInVisibleText(
      seen({ where: 'the text', text: 'tpat_••9a1b' }, { where: 'a form field', text: TOKEN }, { where: 'a canvas', text: TOKEN }),
      TOKEN,
    );
    expect(shown).toMatchObject({ ok: false, actual: 'the full token is shown in a form field, a canvas' });
    expect([page.displayed('tpat_••••9a1b').ok, page.displayed('  ').ok, page.displayed(undefined).ok]).toEqual([true, false, false]);
  });

  it('the token still shown as it was: a dash, nothing, or another text in its place is not', () => {
    expect(page.sameDisplay('tpat_••••9a1b', ' tpat_••••9a1b ').ok).toBe(true);
    expect(page.sameDisplay('tpat_••••9a1b 2:00', 'tpat_••••9a1b 1:58').ok).toBe(true);
    expect(page.sameDisplay('••••••••', '••••••••').ok).toBe(true);
    expect(page.sameDisplay('tpat_••••9a1b', '—')).toMatchObject({ ok: false, actual: '1 other character(s) instead of the 13 shown at first' });
    expect(page.sameDisplay('tpat_••••9a1b', '')).toMatchObject({ ok: false, actual: 'empty or missing' });
    expect(page.sameDisplay('', '').ok).toBe(false);
  });

  it('no copy-failure message after a Copy that worked', () => {
    expect([page.noCopyFailure(false, 'x').ok, page.noCopyFailure(true, 'x').ok]).toEqual([true, false]);
  });

  it('the countdown reads 2:00 and goes down', () => {
    expect([' 2:00 ', '2:00', '1:00', undefined].map((text) => page.reads(text, '2:00').ok)).toEqual([true, true, false, false]);
    const later: [string, string | undefined][] = [
      ['2:00', '1:59'],
      ['2:00', '2:00'],
      ['2:00', undefined],
      ['0:59', '1:00'],
    ];
    expect(later.map(([a, b]) => page.countsDown(a, b).ok)).toEqual([true, false, false, false]);
  });

  it('messages are matched as found on the page, and what was shown instead is reported', () => {
    expect(page.messageShown(true, 'x', []).ok).toBe(true);
    expect(page.messageShown(false, 'x', ['Token generation cancelled.']).actual).toBe('shown instead: "Token generation cancelled."');
    expect(page.messageShown(false, 'x', []).actual).toBe('no message');
  });

  it('gone, not shown again, redirected away, no list', () => {
    const masked = 'tpat_••••9a1b';
    const text = (t: string) => seen({ where: 'the text', text: t });
    expect([
      page.gone(false, text('API tokens'), masked, TOKEN).ok,
      page.gone(true, text(''), 'x', TOKEN).ok,
      page.gone(false, text(masked), masked, TOKEN).ok,
    ]).toEqual([true, false, false]);
    expect(page.gone(false, seen({ where: 'the title', text: `Token ${TOKEN}` }), masked, TOKEN)).toMatchObject({
      ok: false,
      actual: 'the full token is in the title',
    });
    expect([page.notShownAgain(false, text('API tokens'), masked, TOKEN).ok, page.notShownAgain(false, text(`x ${TOKEN}`), '', TOKEN).ok]).toEqual([
      true,
      false,
    ]);
    const generated = page.notShownAgain(false, seen({ where: 'generated content', text: masked }), masked, TOKEN);
    expect(generated).toMatchObject({ ok: false, actual: 'shown again: the masked token is still in generated content' });
    const tokenPage = 'http://acme.localhost:1/account/api-tokens';
    expect(page.redirectedAway('http://acme.localhost:1/account', tokenPage, false).ok).toBe(true);
    expect(page.redirectedAway(`${tokenPage}/`, tokenPage, true).actual).toBe('the token page itself, Generate token and all');
    expect(page.redirectedAway('http://id.localhost:1/realms/x', tokenPage, false).ok).toBe(false);
    expect(page.redirectedAway('http://acme.localhost:1/account', tokenPage, true).ok).toBe(false);
    expect([page.noRevokeControl([]).ok, page.noRevokeControl(['Revoke']).ok]).toEqual([true, false]);
    expect([page.noTokenList([]).ok, page.noTokenList(['ul of 2 item(s)']).ok]).toEqual([true, false]);
  });

  it('the same businesses, by id', () => {
    expect(page.sameBusinesses(['1', '2'], ['2', '1'], 'alice').ok).toBe(true);
    expect(page.sameBusinesses(['1', '3'], ['1', '2'], 'alice').actual).toBe('also lists 3; misses 2');
  });
});

describe('what leaves the browser', () => {
  it('a page whose text holds a registered secret is recognised; one without is not', () => {
    const redactor = new Redactor();
    redactor.register('api-token', TOKEN);
    expect(showsSecret(`Your token ${TOKEN}`, redactor)).toBe(true);
    expect(showsSecret('Your token tpat_••••••••9a1b', redactor)).toBe(false);
  });

  it('URLs in error messages lose their query (a one-time code)', () => {
    const text = 'navigated to "http://acme.localhost:1/account/api-tokens?code=ac1.secret&state=s" then';
    expect(scrub(text)).toBe('navigated to "http://acme.localhost:1/account/api-tokens?…" then');
  });
});
