/** CLIENT-NO-SECRET (spec §2, §5.2): the sign-in client is public; an exchange carries no secret. */
import { noBodyFields, noHeader } from '../../../src/checks/request.js';
import { isExchange, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';

const SECRET_FIELDS = ['client_secret', 'client_assertion', 'client_assertion_type'];

export const noSecret: ClientJudge = {
  rule: 'CLIENT-NO-SECRET',
  profiles: ['personal-token'],
  notExercised: 'the client made no exchange at the sign-in server',
  judge(scenario, v) {
    for (const request of requestsOf(scenario).filter((r) => isExchange(r, scenario.settings))) {
      v.check('the exchange carries no client secret field', noBodyFields(request, SECRET_FIELDS), [request]);
      v.check('the exchange carries no Authorization header (no client authentication)', noHeader(request, 'authorization'), [request]);
    }
  },
};
