/**
 * The shape of a search answer (spec §2, §4.3): items with id, name and registrationNumber, and the
 * paging members, with the invariants any paging must keep (items ≤ pageSize, totalCount ≥ items).
 *
 * So that the items are not vacuously empty, a chain from the hook gets read access to two new
 * businesses first (when the hook offers businesses and access); the hookless user can read at
 * least one business by the contract of TACK_USER_EMAIL.
 */
import { sampleBusinesses } from '../../fixtures/businesses.js';
import { describe } from '../../src/harness/context.js';
import type { TestCase } from '../../src/harness/types.js';
import { schemaProblems, searchResultSchema } from './search-schema.js';
import { accessTokenOf, hookHas } from './support.js';

export const searchShape: TestCase = {
  id: 'api/search-shape',
  title: 'Search answers items (id, name, registrationNumber) and consistent paging members',
  rules: ['SEARCH-SHAPE'],
  needs: ['api-token'],
  async run(t) {
    const chain = await t.tokens.chain();
    let readsSomething = !chain.owned;
    // Guarded: only a chain tack created can be given access, and only through these capabilities.
    if (chain.owned && hookHas(t, 'businesses', 'access')) {
      for (const business of sampleBusinesses(t.parts.runId, t.fc.seed, 2)) {
        const id = await t.hook.createBusiness(chain.tenant, business);
        await t.hook.setAccess(chain.tenant, id, chain.email, 'read');
      }
      readsSomething = true;
    }
    const res = await t.api.search(t.target.baseUrl, await accessTokenOf(chain));
    if (res.status === 403 && !readsSomething) {
      throw new Error('search answered 403 for a user who may read nothing, and the hook cannot grant access (businesses, access): the shape cannot be checked');
    }
    t.check('SEARCH-SHAPE', 'search answers 200', res.status === 200, '200', describe(res));
    const type = (res.headers['content-type'] ?? '').toLowerCase();
    t.soft('SEARCH-SHAPE', 'the answer is JSON', /\bjson\b/.test(type) && res.json !== undefined, 'a JSON body (application/json)', type || '(no content type)');
    const parsed = searchResultSchema.safeParse(res.json);
    t.check('SEARCH-SHAPE', 'the answer has items[] (id, name, registrationNumber), pageIndex, pageSize, totalCount', parsed.success, 'the search result schema holds', parsed.success ? 'holds' : schemaProblems(parsed.error));
    const page = parsed.data!;
    if (readsSomething) t.soft('SEARCH-SHAPE', 'a user who may read businesses gets items', page.items.length > 0, 'at least one item', '0 items');
    t.observe('SEARCH-SHAPE', `first page: pageIndex ${page.pageIndex} (${page.pageIndex === 0 ? '0-based' : page.pageIndex === 1 ? 'probably 1-based' : 'base unknown'}), pageSize ${page.pageSize}, totalCount ${page.totalCount}, ${page.items.length} items; ids are ${page.items.length === 0 ? 'not seen' : typeof page.items[0]!.id === 'number' ? 'numbers' : 'strings'}`);
  },
};
