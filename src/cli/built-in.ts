/**
 * The built-in target: the reference server, started by the command line (never by the checking
 * side, which must stay independent of it) when no TACK_BASE_URL is set.
 */
import type { BuiltInStarter } from '../harness/session.js';

export const startBuiltIn: BuiltInStarter = async (settings) => {
  const { startReferenceServer } = await import('../reference/index.js');
  return startReferenceServer({
    faults: settings.faults,
    ...(settings.partnerHeaders ? { partnerHeaders: settings.partnerHeaders } : {}),
    ...(settings.clientId ? { clientId: settings.clientId } : {}),
  });
};
