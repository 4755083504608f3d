/**
 * The server's data: tenants (each with its partner key and feature switch), users (global, with
 * their tenant memberships), and businesses (each in one tenant, with the users who may read it).
 *
 * Users are global, as on the real platform: one person may belong to several tenants. E-mail
 * addresses are compared case-insensitively (the lower-cased address is the key); the address is
 * kept as first given. Ids are short and URL-safe (`u1`, `b1`), so access tokens can carry them.
 */
import { insufficientStorage } from './errors.js';

export type SignIn = 'direct' | 'embedded';

export interface Tenant {
  /** The subdomain label, e.g. `acme`. */
  readonly name: string;
  readonly displayName: string;
  readonly partner: { readonly clientId: string; readonly secret: string };
  readonly features: { apiTokens: boolean };
  /** User ids. */
  readonly members: Set<string>;
  readonly businesses: Map<string, Business>;
}

export interface UserProfile {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly displayName?: string;
  readonly phoneNumber?: string;
  readonly timeZone?: string;
}

export interface User extends UserProfile {
  readonly id: string;
  readonly signIn: SignIn;
  disabled: boolean;
  /** Tenant names. */
  readonly tenants: Set<string>;
}

export interface Business {
  readonly id: string;
  readonly tenant: string;
  readonly name: string;
  readonly registrationNumber: string;
  /** Ids of the users who may read this business. */
  readonly readers: Set<string>;
}

interface DirectoryLimits {
  readonly maxUsers: number;
  readonly maxBusinesses: number;
}

const DEFAULT_DIRECTORY_LIMITS: DirectoryLimits = { maxUsers: 100_000, maxBusinesses: 100_000 };

function emailKey(email: string): string {
  return email.toLowerCase();
}

export class Directory {
  readonly tenants = new Map<string, Tenant>();
  readonly #users = new Map<string, User>();
  readonly #usersByEmail = new Map<string, User>();
  readonly #tenantsByClientId = new Map<string, Tenant>();
  readonly #businesses = new Map<string, Business>();
  readonly #limits: DirectoryLimits;
  #nextUser = 1;
  #nextBusiness = 1;

  constructor(limits: DirectoryLimits = DEFAULT_DIRECTORY_LIMITS) {
    this.#limits = limits;
  }

  addTenant(name: string, displayName: string, partner: { clientId: string; secret: string }): Tenant {
    const tenant: Tenant = {
      name,
      displayName,
      partner,
      features: { apiTokens: true },
      members: new Set(),
      businesses: new Map(),
    };
    this.tenants.set(name, tenant);
    this.#tenantsByClientId.set(partner.clientId, tenant);
    return tenant;
  }

  tenant(name: string): Tenant | undefined {
    return this.tenants.get(name);
  }

  /** The tenant whose partner key has this client id. */
  tenantByClientId(clientId: string): Tenant | undefined {
    return this.#tenantsByClientId.get(clientId);
  }

  user(id: string): User | undefined {
    return this.#users.get(id);
  }

  userByEmail(email: string): User | undefined {
    return this.#usersByEmail.get(emailKey(email));
  }

  /** The user with this address if they are a member of `tenant`. */
  member(tenant: Tenant, email: string): User | undefined {
    const user = this.userByEmail(email);
    return user !== undefined && tenant.members.has(user.id) ? user : undefined;
  }

  createUser(profile: UserProfile, signIn: SignIn): User {
    if (this.#users.size >= this.#limits.maxUsers) throw insufficientStorage(`${this.#limits.maxUsers} users`);
    const user: User = { ...profile, id: `u${this.#nextUser++}`, signIn, disabled: false, tenants: new Set() };
    this.#users.set(user.id, user);
    this.#usersByEmail.set(emailKey(user.email), user);
    return user;
  }

  addMember(tenant: Tenant, user: User): void {
    tenant.members.add(user.id);
    user.tenants.add(tenant.name);
  }

  createBusiness(tenant: Tenant, name: string, registrationNumber: string): Business {
    if (this.#businesses.size >= this.#limits.maxBusinesses) {
      throw insufficientStorage(`${this.#limits.maxBusinesses} businesses`);
    }
    const business: Business = { id: `b${this.#nextBusiness++}`, tenant: tenant.name, name, registrationNumber, readers: new Set() };
    this.#businesses.set(business.id, business);
    tenant.businesses.set(business.id, business);
    return business;
  }

  setAccess(business: Business, user: User, access: 'read' | 'none'): void {
    if (access === 'read') business.readers.add(user.id);
    else business.readers.delete(user.id);
  }
}
