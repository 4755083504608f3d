/** Multi-step lifecycles, each checking several rules in the order a real client meets them. */
import type { TestCase } from '../../src/runner/test-case.js';
import { multiTenantNarrowing } from './multi-tenant-narrowing.js';
import { partnerOnboarding } from './partner-onboarding.js';
import { permissionRemovalScenario } from './permission-removal.js';
import { absoluteExpiryScenario } from './absolute-expiry.js';
import { accessTokenRetry } from './access-token-retry.js';
import { idleExpiryScenario } from './idle-expiry.js';
import { personalTokenLifecycle } from './personal-token-lifecycle.js';

export const LIFECYCLE_TESTS: readonly TestCase[] = [
  partnerOnboarding,
  multiTenantNarrowing,
  permissionRemovalScenario,
  personalTokenLifecycle,
  idleExpiryScenario,
  absoluteExpiryScenario,
  accessTokenRetry,
];
