/** The doctor's `config` section: the mode named from the configuration, and a warning for each part left out (what it will skip). */
import { describe, expect, it } from 'vitest';
import { diagnoseSettings } from '../../src/doctor/settings.js';
import { sayings, targetOf } from './helpers.js';

const PARTNER = { TACK_PARTNER_CLIENT_ID: 'p', TACK_PARTNER_SECRET: 's' };
const HOOK = { TACK_HOOK_URL: 'http://hook.localhost:1', TACK_HOOK_TOKEN: 'h' };

describe('diagnoseSettings', () => {
  it.each([
    ['hook mode', HOOK, /hook mode \(TACK_HOOK_URL\)/],
    ['hookless mode', { TACK_USER_EMAIL: 'u@example.com', TACK_API_TOKEN_FILE: '/tmp/x' }, /hookless mode/],
    ['partner-key mode', { TACK_USER_EMAIL: 'u@example.com' }, /partner-key mode/],
    ['no source of tokens', {}, /^valid: a remote target, no source of API tokens/],
  ])('names %s', (_what, env, mode) => {
    const { say, lines } = sayings();
    diagnoseSettings(targetOf(env), say);
    expect(lines[0]![0]).toBe('ok');
    expect(lines[0]![1]).toMatch(mode);
    expect(lines[0]![1]).toMatch(/request timeout \d+ ms, run deadline \d+ s/);
  });

  it('says the built-in reference server when tack started it', () => {
    const { say, lines } = sayings();
    diagnoseSettings(targetOf(HOOK, true), say);
    expect(lines[0]![1]).toMatch(/^valid: the built-in reference server/);
  });

  it('warns once for each missing part: partner key, tenant B, a user who reads', () => {
    const { say, lines } = sayings();
    diagnoseSettings(targetOf(), say);
    expect(lines.slice(1).map(([s, t]) => [s, t.split(' (')[0]])).toEqual([
      ['warning', 'no partner key'],
      ['warning', 'no tenant B'],
      ['warning', 'no user who reads a business'],
    ]);
  });

  it('warns of nothing when partner key, tenant B and hook are all there', () => {
    const { say, lines } = sayings();
    diagnoseSettings(targetOf({ ...PARTNER, ...HOOK, TACK_OTHER_BASE_URL: 'http://beta.localhost:1' }), say);
    expect(lines.filter(([s]) => s !== 'ok')).toEqual([]);
  });
});
