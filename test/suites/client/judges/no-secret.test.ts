import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../../suites/client/index.js';
import { noSecret } from '../../../../suites/client/judges/no-secret.js';
import { exchange, FIRST, FORM, judged, run, scenario, search, TOKEN_PATH, req } from '../../../helpers/client-evidence.js';

const withForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  req(1, 'identity', 'POST', TOKEN_PATH, {
    headers: { 'content-type': FORM, ...headers },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: FIRST, ...fields }).toString(),
  });
const verdicts = (...requests: ReturnType<typeof req>[]) => judged(noSecret, scenario('happy-path', 'personal-token', [run(1, requests)]));

describe('CLIENT-NO-SECRET', () => {
  it('is judged for a personal-token client, which has an exchange; a partner client has none', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-NO-SECRET');
    expect(rulesOf('partner-key', 'happy-path')).not.toContain('CLIENT-NO-SECRET');
  });

  it('a clean exchange passes both checks', () => {
    expect(verdicts(exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' })).oks).toEqual(['ok', 'ok']);
  });

  it.each(['client_secret', 'client_assertion', 'client_assertion_type'])('an exchange with a %s field fails, pointing at the exchange', (field) => {
    const sent = withForm({ [field]: 'x' });
    const { checks } = verdicts(sent);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [false, [sent.seq]],
      [true, [sent.seq]],
    ]);
  });

  it('an exchange with client authentication in an Authorization header fails, pointing at the exchange', () => {
    const sent = withForm({}, { authorization: 'Basic cGF5cm9sbC1wb3J0YWw6eA==' });
    const { checks } = verdicts(sent);
    expect(checks.map((c) => [c.ok, c.seqs])).toEqual([
      [true, [sent.seq]],
      [false, [sent.seq]],
    ]);
  });

  it('an API call with its Authorization header is no exchange: not judged here', () => {
    expect(verdicts(search(1, 'at_1')).checks).toEqual([]);
  });
});
