import type { TestCase } from '../../src/runner/test-case.js';
import { accessTokenRequired } from './access-token.js';
import { accessTokenLifetime } from './lifetime.js';
import { searchNonMember } from './non-member.js';
import { onlyReadable, permissionRemoval } from './readable.js';
import { searchShape } from './shape.js';
import { searchMalformedRequests } from './server-errors.js';
import { tenantFromHost } from './tenant-from-host.js';

export const API_TESTS: readonly TestCase[] = [
  accessTokenRequired,
  searchShape,
  onlyReadable,
  permissionRemoval,
  searchNonMember,
  tenantFromHost,
  searchMalformedRequests,
  // Last: it moves the target's clock.
  accessTokenLifetime,
];
