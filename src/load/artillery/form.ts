/**
 * A profile's Artillery form: how one Artillery virtual user (VU) gets its own chain, and the
 * conversation that drives it. The conversation is the profile's own, the one `tack load`'s engine
 * drives, so every answer in Artillery is judged by the same code (`hooks.ts` turns its outcomes
 * into Artillery counters).
 */
import type { Conversation, Tally } from '../engine/engine.js';
import type { PartnerWire } from '../chains/partner-wire.js';
import type { Endpoint } from '../engine/target.js';

export interface ArtilleryForm {
  /** Sets up this VU's chain (through the hook or the partner key) and returns its conversation. */
  vu(v: VuContext): Promise<Conversation>;
}

/** What a VU's setup may use: the target as the TACK_* variables give it, and the setup calls (vu-setup.ts). */
export interface VuContext {
  /** The sign-in server and the tenant host (requests go to their URLs; `*.localhost` is loopback). */
  readonly identity: Endpoint;
  readonly tenant: Endpoint;
  /** TACK_CLIENT_ID. */
  readonly clientId: string;
  /** TACK_ACCESS_TOLERANCE_S, as tack uses it (src/spec.ts `accessTolerance`). */
  readonly accessToleranceS: number;
  /** Rotations become the `tack.rotations` counter. */
  readonly tally: Tally;
  /** A fresh user through the test hook, signed in directly, with a new personal API token. */
  hookUserWithApiToken(): Promise<{ readonly email: string; readonly apiToken: string }>;
  /** Read access for `email` to one new business (through the test hook), so searches list something. */
  grantReadToNewBusiness(email: string): Promise<void>;
  /** A user created with tenant A's partner key, one mint for them, and the token fields found on it. */
  partnerUser(): Promise<{ readonly user: string; readonly wire: PartnerWire; readonly refreshToken: string | undefined }>;
}
