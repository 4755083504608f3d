/** Sign-in server and personal API token (spec §1, §2, §3, §4.2, §5, §8). */
import type { TestCase } from '../../src/runner/test-case.js';
import { absoluteExpiry } from './absolute-expiry.js';
import { clientId } from './client-id.js';
import { noCors } from './cors.js';
import { disabledUser } from './disabled-user.js';
import { exchange } from './exchange.js';
import { garbage } from './garbage.js';
import { directOnly, featureGate } from './generation.js';
import { idleExpiry } from './idle-expiry.js';
import { lifecycle } from './lifecycle.js';
import { revoke } from './revoke.js';
import { rotation } from './rotation.js';
import { rotationAtomic } from './rotation-atomic.js';
import { signInMalformedRequests } from './server-errors.js';

/** Hookless-safe tests first (exchange, rotation, garbage, CORS), then those on tokens tack owns, then those that need the hook. */
export const SIGN_IN_TESTS: readonly TestCase[] = [
  exchange,
  rotation,
  garbage,
  noCors,
  signInMalformedRequests,
  revoke,
  rotationAtomic,
  clientId,
  disabledUser,
  featureGate,
  directOnly,
  idleExpiry,
  absoluteExpiry,
  lifecycle,
];
