/**
 * Before any rule: can the target's hosts be reached at all? A refused connection, an unknown
 * name or a host that does not answer ends the run at once (exit 2) with a message that names
 * the host, instead of a page of per-rule errors.
 */
import { isTackError, TackError } from './errors.js';
import type { Session } from './session.js';

export async function preflight(session: Session): Promise<void> {
  const { target, http, transcript } = session;
  transcript.setTest('preflight');
  const probes = [
    { role: 'tenant host', method: 'GET', url: `${target.baseUrl}/api/businesses/search` },
    { role: 'identity server', method: 'POST', url: `${target.identityUrl}/protocol/openid-connect/token` },
  ];
  try {
    for (const probe of probes) {
      try {
        await http.send({ ...probe, headers: probe.method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, body: probe.method === 'POST' ? '' : undefined });
      } catch (error) {
        if (isTackError(error, 'TACK_ERR_UNREACHABLE') || isTackError(error, 'TACK_ERR_TIMEOUT')) {
          throw new TackError(error.code, `${error.message}; nothing was checked`, { cause: error });
        }
        // A host that answers badly is reachable: the rules will say what is wrong.
      }
    }
  } finally {
    transcript.setTest(undefined);
  }
}
