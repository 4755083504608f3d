/**
 * Verdicts on what a search lists, over every page tack could read (./paging.ts). A business tack
 * looks for and did not find is a failure only when every page was read; otherwise the check is
 * `unverified`, with the reason. A business listed where it must not be is a failure on any page.
 */
import type { TestContext } from '../runner/test-context.js';
import type { Reads } from '../harness/readers.js';
import type { RuleId } from '../rules/catalog.js';
import { listed, lists, listsSomething, notListed, type SearchPages, type Wanted } from '../checks/search.js';

interface Options {
  readonly soft?: boolean;
}

function recorder(t: TestContext, options: Options) {
  return options.soft ? t.soft.bind(t) : t.check.bind(t);
}

export function expectListed(t: TestContext, rule: RuleId, title: string, pages: SearchPages, wanted: Wanted, options: Options = {}): boolean {
  if (!lists(pages, wanted) && !pages.complete && pages.parsed) {
    t.unverified(rule, title, `business ${wanted.id} is not on the ${pages.pages} page(s) read: ${pages.incomplete}`);
    return false;
  }
  recorder(t, options)(rule, title, listed(pages, wanted));
  return lists(pages, wanted);
}

export function expectNotListed(t: TestContext, rule: RuleId, title: string, pages: SearchPages, wanted: Wanted, options: Options = {}): boolean {
  const found = notListed(pages, wanted);
  if (found.ok && pages.first.status === 200 && !pages.complete) {
    t.unverified(rule, title, `business ${wanted.id} is not on the ${pages.pages} page(s) read, but not every page was read: ${pages.incomplete}`);
    return false;
  }
  recorder(t, options)(rule, title, found);
  return found.ok;
}

/** The token works: its search lists what its user reads (the granted business, or at least one). */
export function expectUserData(t: TestContext, rule: RuleId, title: string, pages: SearchPages, reads: Reads, options: Options = {}): boolean {
  if (reads.kind === 'business') return expectListed(t, rule, title, pages, reads, options);
  const found = listsSomething(pages);
  recorder(t, options)(rule, title, found);
  return found.ok;
}
