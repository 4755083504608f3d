/**
 * CLIENT-BEARER (spec §4.1 rule 4, §4.3, §5.3): every API call carries an access token the server
 * issued, as `Authorization: Bearer`. (That a run does its search: CLIENT-COMPLETES-WORK.)
 */
import { bearerAmong } from '../../../src/checks/request.js';
import { requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { accessTokenIssued, isApiCall } from '../../../src/checks/observed-request.js';

export const bearer: ClientJudge = {
  rule: 'CLIENT-BEARER',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'the client made no API call',
  judge(scenario, v) {
    // Stryker disable next-line ArrayDeclaration: a placeholder token in place of none issued is never one a client sends.
    const issued = new Set(requestsOf(scenario).flatMap((r) => accessTokenIssued(r) ?? []));
    for (const call of requestsOf(scenario).filter(isApiCall)) {
      const found = bearerAmong(call, issued, 'an access token the server issued');
      v.check('the API call carries Authorization: Bearer with an access token the server issued', found, [call]);
    }
  },
};
