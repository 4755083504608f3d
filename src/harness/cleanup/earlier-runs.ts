/**
 * At the start of a run: the journals of runs against the same sign-in server that stopped without
 * revoking what they generated (killed, a power cut, a target that did not answer the revoke). This
 * run takes their tokens over (listed in its own journal first, so a kill now loses nothing),
 * removes their journals, revokes the tokens, and says so. Journals of runs still running are left
 * alone; the built-in server keeps no journal.
 */
import type { Session } from '../session.js';
import { findJournals, removeJournal } from './journal.js';

/** Revokes what stopped runs left alive; returns the lines to print (none when there was nothing). */
export async function revokeEarlierRuns(session: Pick<Session, 'journalDir' | 'target' | 'runId' | 'ledger' | 'transcript'>): Promise<string[]> {
  if (session.journalDir === undefined) return [];
  const dead = findJournals(session.journalDir, session.target, session.runId).filter((j) => j.dead);
  if (dead.length === 0) return [];
  for (const journal of dead) {
    session.ledger.adoptEarlier(journal.header.run, journal.header.startedAt, journal.tokens);
    removeJournal(journal.file);
  }
  session.transcript.setTest('cleanup');
  try {
    await session.ledger.revokeEarlier();
  } finally {
    session.transcript.setTest(undefined);
  }
  return session.ledger.report().earlierRuns.map((e) => {
    const left = e.tokens - e.revoked;
    const kept = left > 0 ? `; ${left} could not be revoked and stay listed for the next run` : '';
    return `tack: run ${e.run} (started ${e.startedAt}) stopped without revoking ${e.tokens} API token(s) it generated: ` + `revoked ${e.revoked} now${kept}`;
  });
}
