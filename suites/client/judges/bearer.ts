/**
 * CLIENT-BEARER (spec §4.1 rule 4, §4.3, §5.3): every API call carries an access token the server
 * issued, as `Authorization: Bearer`; and a run that obtained an access token makes its business
 * search (the contract: one run of the client's work includes at least one).
 */
import { bearerAmong } from '../../../src/checks/request.js';
import { some } from '../../../src/checks/sequence.js';
import { requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { accessTokenIssued, isApiCall, isBusinessSearch } from '../../../src/checks/observed-request.js';

export const bearer: ClientJudge = {
  rule: 'CLIENT-BEARER',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'the client made no API call and never held an access token',
  judge(scenario, v) {
    const issued = new Set(requestsOf(scenario).flatMap((r) => accessTokenIssued(r) ?? []));
    for (const call of requestsOf(scenario).filter(isApiCall)) {
      const found = bearerAmong(call, issued, 'an access token the server issued');
      v.check('the API call carries Authorization: Bearer with an access token the server issued', found, [call]);
    }
    for (const run of scenario.runs) {
      if (!run.requests.some((r) => accessTokenIssued(r) !== undefined)) continue;
      const searches = run.requests.filter(isBusinessSearch);
      const title = `run ${run.index}, which obtained an access token, makes its business search`;
      v.check(title, some(searches, 'business search'), searches.length > 0 ? searches : run.requests);
    }
  },
};
