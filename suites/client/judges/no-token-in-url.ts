/**
 * CLIENT-NO-TOKEN-IN-URL (spec §4.1 rule 4, §4.3, §5; RFC 6750 §2.3): tokens travel in headers and
 * bodies only. Judged on every URL; it holds once the client reached its work (it had a token to
 * send) and put none in a URL.
 */
import { findSecret, noSecretIn } from '../../../src/checks/leaks.js';
import { reachedWork, requestsOf } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { secretsOf } from '../scenario-secrets.js';
import { plural } from '../../../src/text/plural.js';

export const noTokenInUrl: ClientJudge = {
  rule: 'CLIENT-NO-TOKEN-IN-URL',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'no run of the client reached its work',
  judge(scenario, v) {
    const requests = requestsOf(scenario);
    const secrets = secretsOf(scenario);
    const offending = requests.filter((r) => findSecret(r.target, secrets) !== undefined);
    // A scenario no run of which reached its work is no evidence that the rule holds; a token in a URL still counts.
    if (offending.length === 0 && !scenario.runs.some((run) => reachedWork(run, scenario.settings))) return;
    const where = `the URLs of its ${plural(requests.length, 'request')}`;
    // Stryker disable next-line StringLiteral: each URL begins with "/", so no token runs from one URL into the next either way.
    const urls = requests.map((r) => r.target).join(' ');
    v.check('no request URL carries a token or the partner secret', noSecretIn(urls, secrets, where), offending);
  },
};
