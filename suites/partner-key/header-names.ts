/**
 * Header names (spec §5): the credentials are read from the configured names, matched without
 * regard to letter case (RFC 9110 §5.1: field names are case-insensitive), and from no other names.
 *
 * "Accepted" is judged on user creation: 2xx with the credentials accepted, 401 without. Creation
 * is the partner call whose success does not depend on anything else existing on the target.
 */
import fc from 'fast-check';
import { headerNameCase, misnamedHeaders } from '../../fixtures/headers.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { status, success } from '../../src/checks/response.js';
import { checkProblem } from '../../src/steps/problem-details.js';

export const headerNames: TestCase = {
  id: 'partner-key/header-names',
  title: 'The credential headers are the configured names, in any letter case, and no others',
  rules: ['PARTNER-HEADER-NAMES', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    const key = t.partner.key!;
    const [idName, secretName] = t.target.partnerHeaders;
    const create = (names: readonly [string, string]) =>
      t.partner.createUser(
        { email: t.names.email('header-names'), ...t.names.person() },
        { credentials: { [names[0]]: key.clientId, [names[1]]: key.secret } },
      );

    // Refusals first and soft, so a server that reads any name is caught even if it also fails the case checks.
    for (const misnamed of misnamedHeaders(t.target.partnerHeaders)) {
      const res = await create(misnamed.names);
      t.soft('PARTNER-HEADER-NAMES', `credentials sent under ${misnamed.kind} (${misnamed.names.join(', ')})`, status(res, 401));
      checkProblem(t, res, `credentials under ${misnamed.kind}`);
    }

    for (const [kind, map] of [
      ['lower case', (s: string) => s.toLowerCase()],
      ['upper case', (s: string) => s.toUpperCase()],
    ] as const) {
      const res = await create([map(idName), map(secretName)]);
      t.soft('PARTNER-HEADER-NAMES', `both configured names in ${kind}: credentials accepted`, success(res));
    }
    const pairs = fc.tuple(headerNameCase(idName), headerNameCase(secretName));
    await t.property('PARTNER-HEADER-NAMES', 'the configured names in any letter case are accepted', pairs, async ([id, secret]) => {
      const res = await create([id.name, secret.name]);
      t.check('PARTNER-HEADER-NAMES', `${id.name} and ${secret.name}: credentials accepted`, success(res));
    });
  },
};
