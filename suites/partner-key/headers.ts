/**
 * Partner key headers (spec §5, §7): both required, and compared whole, on every admin call.
 */
import fc from 'fast-check';
import { headerTampering } from '../../fixtures/headers.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { status } from '../../src/checks/response.js';
import { adminCalls } from './admin-calls.js';
import { checkProblem } from '../../src/steps/problem-details.js';

export const headersRequired: TestCase = {
  id: 'partner-key/headers-required',
  title: 'Both credential headers are required on every admin call',
  rules: ['PARTNER-HEADERS-REQUIRED', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    const [idHeader, secretHeader] = t.target.partnerHeaders;
    const key = t.partner.key!;
    const { calls, refresh, noRefresh } = await adminCalls(t, t.partner, t.partner, 'headers');
    if (!refresh) t.unverified('PARTNER-HEADERS-REQUIRED', 'POST /api/admin/authentication/refresh without the headers', noRefresh);
    const variants: [string, Record<string, string>][] = [
      ['no credential header', {}],
      [`only ${idHeader}`, { [idHeader]: key.clientId }],
      [`only ${secretHeader}`, { [secretHeader]: key.secret }],
    ];
    for (const [what, credentials] of variants) {
      for (const call of calls) {
        const res = await call.send(credentials);
        t.soft('PARTNER-HEADERS-REQUIRED', `${call.name} with ${what}`, status(res, 401));
        checkProblem(t, res, `${call.name} with ${what}`);
      }
    }
  },
};

export const tamperedHeaders: TestCase = {
  id: 'partner-key/tampered-credentials',
  title: 'Wrong, truncated or extended credentials are refused on every admin call',
  rules: ['PARTNER-BAD-CREDENTIALS', 'PARTNER-SECRET-EXACT'],
  needs: ['partner'],
  async run(t) {
    const key = t.partner.key!;
    const [idHeader, secretHeader] = t.target.partnerHeaders;
    const { calls, refresh, noRefresh } = await adminCalls(t, t.partner, t.partner, 'tampered');
    if (!refresh)
      for (const rule of ['PARTNER-BAD-CREDENTIALS', 'PARTNER-SECRET-EXACT'] as const)
        t.unverified(rule, 'POST /api/admin/authentication/refresh with tampered credentials', noRefresh);
    const randomSecret = fc
      .sample(fc.string({ minLength: 24, maxLength: 24, unit: 'grapheme-ascii' }), { seed: t.fc.seed, numRuns: 1 })[0]!
      .replace(/[^\x21-\x7e]/g, 'x');
    const flipped = [...key.secret].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    // The whole-value checks first and soft: a server that ignores the secret must fail both rules,
    // so neither may stop the test before the other is reached.
    const variants = [
      ['PARTNER-BAD-CREDENTIALS', 'a wrong client id with the right secret', { [idHeader]: `${key.clientId}-not`, [secretHeader]: key.secret }],
      ['PARTNER-BAD-CREDENTIALS', 'a wrong secret with the right client id', { [idHeader]: key.clientId, [secretHeader]: randomSecret }],
      // The tamperings a prefix or case-folding comparison misses, every run whatever the seed (the
      // property draws the case flip only one time in four); the property explores the rest.
      ['PARTNER-SECRET-EXACT', 'the secret without its last character', { [idHeader]: key.clientId, [secretHeader]: key.secret.slice(0, -1) }],
      ['PARTNER-SECRET-EXACT', 'the secret with one character appended', { [idHeader]: key.clientId, [secretHeader]: `${key.secret}x` }],
      ['PARTNER-SECRET-EXACT', 'the secret in the other letter case', { [idHeader]: key.clientId, [secretHeader]: flipped }],
    ] as const;
    for (const [rule, what, credentials] of variants) {
      const secret = credentials[secretHeader]!;
      if (secret === '' || (rule === 'PARTNER-SECRET-EXACT' && secret === key.secret)) continue;
      for (const call of calls) t.soft(rule, `${call.name} with ${what}`, status(await call.send(credentials), 401));
    }
    const cases = fc.tuple(headerTampering(key.secret), fc.nat({ max: calls.length - 1 }));
    await t.property('PARTNER-SECRET-EXACT', 'a tampered secret is refused with 401 on every admin call', cases, async ([tampered, which]) => {
      const call = calls[which]!;
      const res = await call.send({ [idHeader]: key.clientId, [secretHeader]: tampered.value });
      t.check('PARTNER-SECRET-EXACT', `${call.name} with the secret ${tampered.kind}`, status(res, 401));
    });
  },
};
