/**
 * CLIENT-SECRETS-NOT-LOGGED (spec §5, §5.6): the client's stdout and stderr hold none of the
 * scenario's secrets. The values are compared in memory; a finding names the kind, never the value.
 */
import { noSecretIn } from '../../../src/checks/leaks.js';
import type { ClientJudge } from '../judge.js';
import { secretsOf } from '../scenario-secrets.js';

export const secretsNotLogged: ClientJudge = {
  rule: 'CLIENT-SECRETS-NOT-LOGGED',
  profiles: ['personal-token', 'partner-key'],
  notExercised: 'no run of the client finished',
  judge(scenario, v) {
    const secrets = secretsOf(scenario);
    for (const run of scenario.runs) {
      if (run.end === 'not-started') continue;
      v.check(`run ${run.index}: stdout holds no token or secret`, noSecretIn(run.stdout, secrets, `the stdout of run ${run.index}`));
      v.check(`run ${run.index}: stderr holds no token or secret`, noSecretIn(run.stderr, secrets, `the stderr of run ${run.index}`));
      if (run.outputTruncated) v.unverified(`run ${run.index}: all of its output`, 'the client wrote more output than tack keeps; the rest was not examined');
    }
  },
};
