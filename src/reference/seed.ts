/**
 * The data every reference server starts with. Partner secrets are random per start; everything
 * else is fixed so that docs and tests can name it.
 *
 * - acme:   partner client id `acme-partner`;   alice (direct) reads 3 of 5 businesses,
 *           dana (embedded app user) reads 1.
 * - globex: partner client id `globex-partner`; bob (direct) reads 2 of 4 businesses.
 * - casey (direct) is a member of both and reads one business in each.
 * - One business per tenant is readable by nobody, so "lists only readable" is observable.
 * - Every seeded user's password is SEED_PASSWORD (known, documented: `tack serve --hookless`
 *   writes it as TACK_USER_PASSWORD), hashed on its first use.
 */
import type { Directory, SignIn } from './directory.js';
import type { Passwords } from './passwords.js';
import { randomSecret } from './secrets.js';

interface SeedUser {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly signIn: SignIn;
  readonly tenants: readonly string[];
}

interface SeedBusiness {
  readonly tenant: string;
  readonly name: string;
  readonly registrationNumber: string;
  /** E-mail addresses of the users who may read it. */
  readonly readers: readonly string[];
}

export const SEED_TENANTS = [
  { name: 'acme', displayName: 'Acme Payroll', clientId: 'acme-partner' },
  { name: 'globex', displayName: 'Globex Corporation', clientId: 'globex-partner' },
] as const;

/** The seeded direct user of acme: `TACK_USER_EMAIL`. */
export const PRIMARY_USER = 'alice@acme.example';

/** The password of every seeded user (`TACK_USER_PASSWORD` of `tack serve --hookless`). */
export const SEED_PASSWORD = 'tack-reference-password';

const SEED_USERS: readonly SeedUser[] = [
  { email: PRIMARY_USER, firstName: 'Alice', lastName: 'Archer', signIn: 'direct', tenants: ['acme'] },
  { email: 'dana@acme.example', firstName: 'Dana', lastName: 'Dube', signIn: 'embedded', tenants: ['acme'] },
  { email: 'bob@globex.example', firstName: 'Bob', lastName: 'Baker', signIn: 'direct', tenants: ['globex'] },
  { email: 'casey@both.example', firstName: 'Casey', lastName: 'Cross', signIn: 'direct', tenants: ['acme', 'globex'] },
];

const SEED_BUSINESSES: readonly SeedBusiness[] = [
  { tenant: 'acme', name: 'Acme Anvils Ltd', registrationNumber: 'ACME-1001', readers: [PRIMARY_USER, 'casey@both.example'] },
  { tenant: 'acme', name: 'Acme Rockets Ltd', registrationNumber: 'ACME-1002', readers: [PRIMARY_USER] },
  { tenant: 'acme', name: 'Acme Springs GmbH', registrationNumber: 'ACME-1003', readers: [PRIMARY_USER] },
  { tenant: 'acme', name: 'Acme Holdings plc', registrationNumber: 'ACME-1004', readers: ['dana@acme.example'] },
  { tenant: 'acme', name: 'Acme Secret Labs', registrationNumber: 'ACME-1005', readers: [] },
  { tenant: 'globex', name: 'Globex Chemicals', registrationNumber: 'GLX-2001', readers: ['bob@globex.example', 'casey@both.example'] },
  { tenant: 'globex', name: 'Globex Energy', registrationNumber: 'GLX-2002', readers: ['bob@globex.example'] },
  { tenant: 'globex', name: 'Globex Research', registrationNumber: 'GLX-2003', readers: [] },
  { tenant: 'globex', name: 'Globex Shipping', registrationNumber: 'GLX-2004', readers: [] },
];

/** Fills an empty directory with the seed; returns the id of the primary user. */
export function seed(directory: Directory, rename: (seedName: string) => string = (n) => n): string {
  for (const tenant of SEED_TENANTS) {
    directory.addTenant(rename(tenant.name), tenant.displayName, { clientId: `${rename(tenant.name)}-partner`, secret: randomSecret(32) });
  }
  for (const spec of SEED_USERS) {
    const user = directory.createUser({ email: spec.email, firstName: spec.firstName, lastName: spec.lastName }, spec.signIn);
    for (const name of spec.tenants) directory.addMember(must(directory.tenant(rename(name))), user);
  }
  for (const spec of SEED_BUSINESSES) {
    const business = directory.createBusiness(must(directory.tenant(rename(spec.tenant))), spec.name, spec.registrationNumber);
    for (const email of spec.readers) directory.setAccess(business, must(directory.userByEmail(email)), 'read');
  }
  return must(directory.userByEmail(PRIMARY_USER)).id;
}

/** Gives every seeded user the known seed password. */
export function seedPasswords(directory: Directory, passwords: Passwords): void {
  for (const spec of SEED_USERS) passwords.seed(must(directory.userByEmail(spec.email)).id, SEED_PASSWORD);
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('seed data is inconsistent');
  return value;
}
