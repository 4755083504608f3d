/**
 * payroll-client: a small, complete integration with the tenant API (docs/spec/tenant-api-access.md).
 * One run lists every business the user may read. It works with a personal API token (kept in a
 * token file that it rewrites at every exchange) or with a partner key (acting for one user).
 *
 *   PAYROLL_BASE_URL=... PAYROLL_IDENTITY_URL=... PAYROLL_API_TOKEN_FILE=... node dist/main.js
 *
 * Exit 0 when the work succeeded; non-zero when it gave up (errors.ts says which code means what).
 */
import { PayrollApi } from './api.js';
import { readConfig } from './config.js';
import { GiveUp } from './errors.js';
import { log } from './log.js';
import { PartnerKeyAccess } from './partner-key.js';
import { PersonalToken } from './personal-token.js';
import { TokenFile } from './token-file.js';

async function main(): Promise<number> {
  const config = readConfig(process.env);
  const { credentials } = config;
  const tokens =
    credentials.kind === 'personal-token'
      ? new PersonalToken(config.identityUrl, new TokenFile(credentials.tokenFile))
      : new PartnerKeyAccess(config.baseUrl, credentials);
  const businesses = await new PayrollApi(config.baseUrl, tokens).allBusinesses();
  for (const business of businesses) process.stdout.write(`${business.id}\t${business.registrationNumber}\t${business.name}\n`);
  log(`${businesses.length} business${businesses.length === 1 ? '' : 'es'} listed`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof GiveUp) {
    log(`giving up: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    // Not one of ours (a network failure...): say what, never dump objects that may hold a token.
    log(`giving up: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unexpected error'}`);
    process.exitCode = 1;
  }
}
