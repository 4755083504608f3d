/**
 * No business search is answered 5xx, well-formed or not (SHOULD: the spec names 401 and 403 only,
 * and shows no query parameters): paging parameters that are not numbers or out of range, under
 * the target's own names (TACK_PAGE_INDEX_PARAM, TACK_PAGE_SIZE_PARAM), with a valid access token
 * so that they are read at all; Authorization headers that are not a bearer token. Every other
 * search of the run is judged by suites/run-wide/every-answer.ts.
 */
import { MALFORMED_AUTHORIZATION, MALFORMED_SEARCH_TEST, searchQueries } from '../../fixtures/malformed-requests.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { TestPart } from '../../src/runner/needs.js';
import { notServerError } from '../../src/checks/server-error.js';
import { createMember, mintOrStop } from '../../src/steps/members.js';
import { PATHS } from '../../src/spec.js';

/** Paging parameters are read only behind a valid access token: one the partner key mints. */
const PAGING: TestPart = {
  rule: 'SEARCH-NO-SERVER-ERROR',
  title: 'malformed paging parameters with a valid access token',
  needs: ['partner'],
};

export const searchMalformedRequests: TestCase = {
  id: MALFORMED_SEARCH_TEST,
  title: 'Malformed business searches: no 5xx',
  rules: ['SEARCH-NO-SERVER-ERROR'],
  needs: [],
  parts: [PAGING],
  async run(t) {
    const url = `${t.target.baseUrl}${PATHS.search}`;
    for (const { kind, value } of MALFORMED_AUTHORIZATION) {
      const res = await t.api.raw('GET', url, { accept: 'application/json', authorization: value });
      t.soft('SEARCH-NO-SERVER-ERROR', `GET ${PATHS.search}: ${kind}`, notServerError(res));
    }
    if (!t.can(PAGING)) return;
    const access = (await mintOrStop(t, await createMember(t, 'malformed-search'))).access.value;
    const { pageIndexParam, pageSizeParam } = t.target.paging;
    for (const { kind, query } of searchQueries(pageIndexParam, pageSizeParam)) {
      const res = await t.api.raw('GET', `${url}?${query}`, { accept: 'application/json', authorization: `Bearer ${access}` });
      t.soft('SEARCH-NO-SERVER-ERROR', `GET ${PATHS.search}: ${kind}`, notServerError(res));
    }
  },
};
