/** How the partner profiles reach the tenant host: the one type the profiles, their setup and the Artillery form share. */
import type { Endpoint } from '../engine/target.js';

/** How the partner profiles' requests reach the tenant host and where their answers hold the tokens. */
export interface PartnerWire {
  readonly tenant: Endpoint;
  /** Credential headers (names from TACK_PARTNER_HEADERS). */
  readonly credentials: Record<string, string>;
  /** Dotted paths of the token fields in the partner token answer, found during setup. */
  readonly accessField: string;
  readonly refreshField: string | undefined;
}
