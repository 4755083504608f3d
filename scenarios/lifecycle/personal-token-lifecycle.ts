/**
 * Personal API token lifecycle, as a script meets it (spec §3, §5): a token is generated, exchanged
 * for an access token that works at the API, rotated several times (each refresh_token stored over
 * the previous one), revoked (200, empty body), and from then on refused with 400 invalid_grant;
 * the remedy the spec gives, a new token, works again. On tokens tack owns: a fresh user's from the
 * hook, or the web user's, generated through the token page.
 */
import type { TestCase } from '../../src/runner/test-case.js';
import { expectUserData } from '../../src/steps/listing.js';
import { searchPages } from '../../src/steps/paging.js';
import { emptyBody, status } from '../../src/checks/response.js';
import { exchanged, invalidGrant, rotated } from '../../src/checks/oauth.js';
import { expectExchange } from '../../src/steps/token-exchange.js';
import type { TestPart } from '../../src/runner/needs.js';

const ROTATIONS = 5;

/** The other half of the rule, refused once 300 s have passed, needs the clock (api/access-token-lifetime does it). */
const REFUSED_AFTER: TestPart = { rule: 'ACCESS-TOKEN-LIFETIME', title: 'refused with 401 once 300 s have passed', needs: ['hook:clock'] };

export const personalTokenLifecycle: TestCase = {
  id: 'scenario/personal-token-lifecycle',
  title: 'Personal token lifecycle: generate, exchange, rotate, revoke, refused, generate again',
  rules: ['SIGNIN-EXCHANGE', 'ACCESS-TOKEN-LIFETIME', 'SIGNIN-ROTATION', 'SIGNIN-REVOKE'],
  needs: ['own-token'],
  parts: [REFUSED_AFTER],
  async run(t) {
    const reader = await t.tokens.ownReader();
    const chain = reader.chain;

    const first = await expectExchange(t, 'SIGNIN-EXCHANGE', 'exchange the new token', chain);
    if (reader.reads) {
      const pages = await searchPages(t, t.target.baseUrl, first.accessToken);
      expectUserData(t, 'ACCESS-TOKEN-LIFETIME', 'search with the access token just issued', pages, reader.reads);
    }

    for (let i = 1; i <= ROTATIONS; i++) {
      const sent = chain.current;
      const result = await chain.exchange();
      t.check('SIGNIN-ROTATION', `rotation ${i} of ${ROTATIONS}, with the refresh_token stored last time`, exchanged(result));
      t.soft('SIGNIN-ROTATION', `rotation ${i} of ${ROTATIONS}: a new refresh_token`, rotated(sent, result));
    }

    const revoked = chain.current;
    const res = await t.identity.revoke(revoked);
    t.soft('SIGNIN-REVOKE', 'revoke the current token', status(res, 200));
    t.soft('SIGNIN-REVOKE', 'revoke answers with an empty body', emptyBody(res));
    t.check('SIGNIN-REVOKE', 'exchange after revoke', invalidGrant((await chain.exchange()).res));
    t.check('SIGNIN-REVOKE', 'exchange after revoke, tried a second time', invalidGrant((await chain.exchange()).res));

    // Spec §7: invalid_grant means do not retry, generate a new token.
    const fresh = await t.tokens.own({ email: chain.email });
    await expectExchange(t, 'SIGNIN-EXCHANGE', 'a new token for the same user', fresh);
  },
};
