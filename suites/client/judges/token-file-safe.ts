/**
 * CLIENT-TOKEN-FILE-SAFE (spec §5.4, §5.6: the token is stored over the previous one, in a secure
 * store): when a run writes the token file, it replaces it whole (a new file renamed over it: a
 * crash mid-write cannot leave half a token) and leaves it readable by its owner only. A client
 * that keeps the token in a store of its own (the file then holds no token an exchange returned)
 * is not judged here.
 */
import { refreshTokenIssued } from '../../../src/checks/observed-request.js';
import { ownerOnly, replacedWhole } from '../../../src/checks/token-file.js';
import { type ObservedRun, isExchange } from '../evidence.js';
import type { ClientJudge } from '../judge.js';

export const tokenFileSafe: ClientJudge = {
  rule: 'CLIENT-TOKEN-FILE-SAFE',
  profiles: ['personal-token'],
  notExercised: 'the client never wrote the token file (it may keep the API token in a store of its own)',
  judge(scenario, v) {
    // Stryker disable next-line ArrayDeclaration: a placeholder token in place of none returned is never what a client writes.
    const issuedIn = (run: ObservedRun) => new Set(run.requests.flatMap((r) => (isExchange(r, scenario.settings) ? (refreshTokenIssued(r) ?? []) : [])));
    for (const run of scenario.runs) {
      if (run.tokenFile === undefined) continue;
      const { before, after } = run.tokenFile;
      if (before === null || after === null) continue;
      if (before.ino === after.ino && before.content === after.content) continue;
      // The file is the client's store only where it wrote there the token an exchange returned; a
      // client that copied the token into a store of its own may empty or overwrite the file.
      if (!issuedIn(run).has(after.content.trim())) continue;
      v.check(`run ${run.index} replaces the token file whole`, replacedWhole(before.ino, after.ino), [], run.index);
      v.check(`run ${run.index} leaves the token file readable by its owner only`, ownerOnly(after.mode), [], run.index);
    }
  },
};
