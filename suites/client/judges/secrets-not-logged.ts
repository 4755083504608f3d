/**
 * CLIENT-SECRETS-NOT-LOGGED (spec §5, §5.6): the client's stdout and stderr hold none of the
 * scenario's secrets, in any form the redactor knows (raw, URL-, form- or JSON-encoded, base64,
 * base64url, base32, hex in either case, cut across lines). The values are compared in memory; a finding names the kind,
 * never the value. A run that gave up before its work counts when it leaked, not as a pass.
 */
import { noSecretIn } from '../../../src/checks/leaks.js';
import { reachedWork } from '../evidence.js';
import type { ClientJudge } from '../judge.js';
import { secretsOf } from '../scenario-secrets.js';

export const secretsNotLogged: ClientJudge = {
  rule: 'CLIENT-SECRETS-NOT-LOGGED',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'no run of the client reached its work',
  judge(scenario, v) {
    const secrets = secretsOf(scenario);
    for (const run of scenario.runs) {
      if (run.end === 'not-started') continue;
      const reached = reachedWork(run, scenario.settings);
      for (const [stream, text] of [
        ['stdout', run.stdout],
        ['stderr', run.stderr],
      ] as const) {
        const found = noSecretIn(text, secrets, `the ${stream} of run ${run.index}`);
        if (reached || !found.ok) v.check(`run ${run.index}: ${stream} holds no token or secret`, found, [], run.index);
      }
      if (run.outputTruncated) v.unverified(`run ${run.index}: all of its output`, 'the client wrote more output than tack keeps; the rest was not examined');
    }
  },
};
