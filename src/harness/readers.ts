/**
 * Users whose tokens can prove that they work. A token "works" only when a call with it returns
 * data that only a user allowed to read it gets (spec §4.3: read access to a business is needed for
 * a non-empty result); a 403, or an empty list, proves nothing.
 *
 * - With the hook's `businesses` and `access` capabilities, tack creates one business per tenant
 *   per run and grants the users it makes read access to it: their tokens must list that business.
 * - Without them, `TACK_USER_EMAIL` is by contract a user of tenant A who reads at least one
 *   business: a token of that user must list at least one.
 * - Otherwise there is no such user, and a check that needs one is `unverified` with `why`.
 */
import type { HookClient } from './clients/hook.js';
import type { Names } from './names.js';

/** What a working token of a user must list. */
export type Reads = { readonly kind: 'business'; readonly id: string; readonly name: string } | { readonly kind: 'some' };

export const NO_READER =
  'needs a user who reads at least one business: the test hook with the businesses and access capabilities, ' +
  'or TACK_USER_EMAIL (a user of tenant A who reads a business)';

export class Readers {
  private readonly shared = new Map<string, Promise<{ id: string; name: string }>>();

  constructor(
    private readonly hook: HookClient | undefined,
    private readonly names: Names,
    /** TACK_USER_EMAIL: a user of tenant A who reads at least one business. */
    readonly configuredUser: string | undefined,
  ) {}

  /** True when tack can give a user of its own read access (hook `businesses` and `access`). */
  get canGrant(): boolean {
    return this.hook?.has('businesses') === true && this.hook.has('access');
  }

  /** Gives `email` read access to the run's business of `tenant` (created once); what its tokens must list. */
  async grant(tenant: string, email: string): Promise<Reads> {
    const hook = this.hook;
    if (!hook || !this.canGrant) throw new Error('granting read access needs the hook with businesses and access (check canGrant first)');
    let business = this.shared.get(tenant);
    if (!business) {
      const draft = this.names.business();
      business = hook.createBusiness(tenant, draft).then((id) => ({ id, name: draft.name }));
      this.shared.set(tenant, business);
      business.catch(() => this.shared.delete(tenant));
    }
    const { id, name } = await business;
    await hook.setAccess(tenant, id, email, 'read');
    return { kind: 'business', id, name };
  }
}
