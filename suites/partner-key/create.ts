/**
 * User creation (spec §2 "User", §4.1): 201 for a new user, optional fields accepted (timeZone: any
 * name of the IANA database, links included, and every run the names runtimes disagree on), 409 for
 * a user that exists, and (SHOULD) 400 for a timeZone that is not an IANA name.
 */
import fc from 'fast-check';
import { INVALID_TIME_ZONES, optionalFieldsOf, userDraft, withEmail, ZONE_ALIASES } from '../../fixtures/users.js';
import type { TestCase } from '../../src/runner/test-case.js';
import { isSuccess, status, success } from '../../src/checks/response.js';
import { checkProblem } from '../../src/steps/problem-details.js';

export const createUser: TestCase = {
  id: 'partner-key/create-user',
  title: 'Creating a new user with the required fields returns 201',
  rules: ['PARTNER-CREATE-USER'],
  needs: ['partner'],
  async run(t) {
    await t.property(
      'PARTNER-CREATE-USER',
      'a new user (unicode names, required fields only) is created with 201',
      userDraft({ optional: 'none' }),
      async (draft) => {
        const res = await t.partner.createUser({ ...withEmail(draft, t.names.email(draft.emailTag)) });
        t.check('PARTNER-CREATE-USER', `create ${draft.firstName} ${draft.lastName}`, status(res, 201));
      },
    );
  },
};

export const createOptional: TestCase = {
  id: 'partner-key/create-optional',
  title: 'The optional fields displayName, phoneNumber and timeZone are accepted',
  rules: ['PARTNER-CREATE-OPTIONAL'],
  needs: ['partner'],
  async run(t) {
    // 2xx, not 201 exactly: the status itself is PARTNER-CREATE-USER's to judge.
    // Every run, whatever the seed: the IANA names one runtime's canonical list lacks (links, new names).
    for (const zone of ZONE_ALIASES) {
      const res = await t.partner.createUser({ email: t.names.email('zone'), ...t.names.person(), timeZone: zone });
      t.soft('PARTNER-CREATE-OPTIONAL', `create with timeZone ${zone} (an IANA name)`, success(res));
    }
    await t.property('PARTNER-CREATE-OPTIONAL', 'a new user with optional fields is accepted', userDraft({ optional: 'at-least-one' }), async (draft) => {
      const res = await t.partner.createUser({ ...withEmail(draft, t.names.email(draft.emailTag)) });
      t.check('PARTNER-CREATE-OPTIONAL', `create with ${optionalFieldsOf(draft)}`, success(res));
    });
  },
};

export const createDuplicate: TestCase = {
  id: 'partner-key/create-duplicate',
  title: 'Creating a user that already exists returns 409',
  rules: ['PARTNER-CREATE-DUPLICATE', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    const draft = fc.sample(userDraft({ optional: 'none' }), { seed: t.fc.seed, numRuns: 1 })[0]!;
    const user = withEmail(draft, t.names.email('duplicate'));
    const first = await t.partner.createUser({ ...user });
    if (!isSuccess(first)) throw new Error(`could not create the user to duplicate (precondition): ${first.status}`);
    const again = await t.partner.createUser({ ...user });
    t.soft('PARTNER-CREATE-DUPLICATE', 'the same body again', status(again, 409));
    checkProblem(t, again, 'create a duplicate user');
    const otherNames = await t.partner.createUser({ ...user, ...t.names.person() });
    t.soft('PARTNER-CREATE-DUPLICATE', 'the same e-mail with other names', status(otherNames, 409));
    // The spec does not say whether e-mail addresses are compared without regard to case: observe only.
    const upper = await t.partner.createUser({ ...user, email: user.email.toUpperCase() });
    const meaning =
      upper.status === 409
        ? 'addresses are compared without regard to case'
        : isSuccess(upper)
          ? 'a different letter case makes a different user'
          : 'refused otherwise';
    t.observe('PARTNER-CREATE-DUPLICATE', `the same e-mail in upper case answered ${upper.status}: ${meaning}`);
  },
};

export const createTimeZone: TestCase = {
  id: 'partner-key/create-timezone',
  title: 'A timeZone that is not an IANA time zone name is refused with 400',
  rules: ['PARTNER-TIMEZONE', 'PARTNER-PROBLEM-DETAILS'],
  needs: ['partner'],
  async run(t) {
    for (const zone of INVALID_TIME_ZONES) {
      const res = await t.partner.createUser({ email: t.names.email('timezone'), ...t.names.person(), timeZone: zone });
      t.soft('PARTNER-TIMEZONE', `timeZone ${JSON.stringify(zone)}`, status(res, 400));
      checkProblem(t, res, `create with timeZone ${JSON.stringify(zone)}`);
    }
  },
};
