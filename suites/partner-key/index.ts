import type { TestCase } from '../../src/runner/test-case.js';
import { badRequest } from './bad-request.js';
import { createDuplicate, createOptional, createTimeZone, createUser } from './create.js';
import { headerNames } from './header-names.js';
import { headersRequired, tamperedHeaders } from './headers.js';
import { mintForMember, mintForNonMember } from './mint.js';
import { tenantNarrowing } from './narrowing.js';
import { userPermissions } from './permissions.js';
import { refreshCrossTenant, refreshNeedsKey, refreshSameHost } from './refresh.js';
import { resetPassword, resetTenantScope } from './reset-password.js';
import { partnerMalformedRequests } from './server-errors.js';
import { tenantBinding } from './tenant-binding.js';

export const PARTNER_KEY_TESTS: readonly TestCase[] = [
  headersRequired,
  tamperedHeaders,
  tenantBinding,
  headerNames,
  createUser,
  createOptional,
  createDuplicate,
  createTimeZone,
  badRequest,
  partnerMalformedRequests,
  mintForMember,
  mintForNonMember,
  tenantNarrowing,
  userPermissions,
  refreshSameHost,
  refreshNeedsKey,
  refreshCrossTenant,
  resetPassword,
  resetTenantScope,
];
