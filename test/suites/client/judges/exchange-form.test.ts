import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { exchangeForm } from '../../../../suites/client/judges/exchange-form.js';
import { FIRST, FORM, IDENTITY, judged, req, revoke, run, scenario, search, TOKEN_PATH, type Parts } from '../../../helpers/client-evidence.js';

const FIELDS = { grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: FIRST };
const attempt = (fields: Record<string, string> = FIELDS, parts: Parts = {}) =>
  req(1, 'identity', 'POST', TOKEN_PATH, { headers: { 'content-type': FORM }, body: new URLSearchParams(fields).toString(), ...parts });
const verdicts = (...requests: ObservedRequest[]) => judged(exchangeForm, scenario('happy-path', 'personal-token', [run(1, requests)]));

describe('CLIENT-EXCHANGE-FORM', () => {
  it('is judged for a personal-token client only', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-EXCHANGE-FORM');
    expect(rulesOf('partner-key', 'happy-path')).not.toContain('CLIENT-EXCHANGE-FORM');
  });

  it('an exchange as the spec writes it passes its five checks, each pointing at it; other requests are not judged', () => {
    const sent = attempt();
    const { checks } = verdicts(search(1, 'at_0'), revoke(1, 'tpat_old'), sent);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual(Array.from({ length: 5 }, () => [true, [sent.seq]]));
  });

  it('each part of the form is checked on its own', () => {
    expect(verdicts(attempt(FIELDS, { target: `${IDENTITY}/protocol/openid-connect/auth` })).oks).toEqual(['failed', 'ok', 'ok', 'ok', 'ok']);
    expect(verdicts(attempt(FIELDS, { headers: { 'content-type': 'text/plain' } })).oks).toEqual(['ok', 'failed', 'failed', 'failed', 'failed']);
    expect(verdicts(attempt({ ...FIELDS, grant_type: 'password' })).oks).toEqual(['ok', 'ok', 'failed', 'ok', 'ok']);
    expect(verdicts(attempt({ ...FIELDS, client_id: 'other-client' })).oks).toEqual(['ok', 'ok', 'ok', 'failed', 'ok']);
    expect(verdicts(attempt({ ...FIELDS, refresh_token: '' })).oks).toEqual(['ok', 'ok', 'ok', 'ok', 'failed']);
    const { refresh_token: _, ...noToken } = FIELDS;
    expect(verdicts(attempt(noToken)).oks).toEqual(['ok', 'ok', 'ok', 'ok', 'failed']);
  });

  it('a JSON body is no form: the media type and every field fail', () => {
    const json = req(1, 'identity', 'POST', TOKEN_PATH, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(FIELDS) });
    expect(verdicts(json).oks).toEqual(['ok', 'failed', 'failed', 'failed', 'failed']);
  });
});
