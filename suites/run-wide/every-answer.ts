/**
 * What every answer of the run shows, whichever test asked for it (as Schemathesis runs its checks
 * on every response it gets, not only on those of the test that looks): no endpoint of the spec
 * answers 5xx, and every search answer has the shape of §2, whoever holds the token (a partner-minted
 * one too: with partner keys only, every search tack makes uses one); the answers to malformed
 * paging parameters excepted (suites/api/server-errors.ts: judged only as no 5xx).
 *
 * A 503 with Retry-After that tack honoured (it waited and sent the request again: politeness.ts) is
 * a rate-limiting gateway's "not now", not the server failing: it is observed, and the answer the
 * request then got is judged. A 503 without Retry-After, or the last one of a target that kept
 * asking past tack's bounded wait, is the answer, and counts.
 *
 * Last in the run (suites/index.ts), so it reads every exchange the tests before it made; with
 * `--only`, those of the tests that run for the rules chosen (each rule's own tests send requests of
 * their own: the malformed-request sweeps, the search-shape test).
 */
import { keyed, type TestContext } from '../../src/runner/test-context.js';
import type { TestCase } from '../../src/runner/test-case.js';
import type { RuleId } from '../../src/rules/catalog.js';
import { finding } from '../../src/checks/finding.js';
import { searchSchema } from '../../src/checks/search.js';
import { noServerErrors } from '../../src/checks/server-error.js';
import { type Side, type SpecExchange, specTraffic } from '../../src/harness/run-traffic.js';
import { MALFORMED_SEARCH_TEST } from '../../fixtures/malformed-requests.js';

const NO_SERVER_ERROR: Readonly<Record<Side, RuleId>> = {
  'partner-key': 'PARTNER-NO-SERVER-ERROR',
  'sign-in': 'SIGNIN-NO-SERVER-ERROR',
  search: 'SEARCH-NO-SERVER-ERROR',
};

export const everyAnswer: TestCase = {
  id: 'run-wide/every-answer',
  title: 'Every answer of the run: no 5xx from an endpoint of the spec, and every search answer in the shape of §2',
  rules: ['PARTNER-NO-SERVER-ERROR', 'SIGNIN-NO-SERVER-ERROR', 'SEARCH-NO-SERVER-ERROR', 'SEARCH-SHAPE'],
  needs: [],
  async run(t) {
    const traffic = specTraffic(t.parts.transcript, t.target);
    const notKept = t.parts.transcript.notKept;
    for (const [side, rule] of Object.entries(NO_SERVER_ERROR) as [Side, RuleId][]) {
      const mine = traffic.filter((e) => e.side === side);
      if (mine.length === 0) t.observe(rule, 'no request of the run before this test went to these endpoints');
      for (const [endpoint, all] of byEndpoint(mine)) {
        const answers = all.filter((e) => !e.retried);
        const honoured = all.filter((e) => e.retried && e.response.status >= 500);
        if (honoured.length > 0) {
          t.observe(rule, `${endpoint}: ${honoured.length} answer(s) 503 with Retry-After, which tack honoured (it waited and sent the request again)`);
        }
        t.soft(
          rule,
          // Which endpoints got traffic depends on the run: the check's id names its endpoint, not its place.
          keyed(endpoint, `every answer of ${endpoint} in this run`),
          noServerErrors(answers.map((e) => ({ res: e.response, what: `a request of ${e.test ?? 'tack'}` }))),
        );
      }
      if (notKept > 0) t.observe(rule, `${notKept} exchange(s) past the transcript's bound were not kept, and not judged here`);
    }
    // The malformed-paging sweep's answers are not judged on their shape: what a server answers to
    // pageSize=0 or pageIndex=-1 (the spec names no query parameter) is its own; only that it is no 5xx.
    judgeSearches(
      t,
      traffic.filter((e) => e.side === 'search' && e.response.status === 200 && e.test !== MALFORMED_SEARCH_TEST),
    );
  },
};

function byEndpoint(traffic: readonly SpecExchange[]): Map<string, SpecExchange[]> {
  const out = new Map<string, SpecExchange[]>();
  for (const e of traffic) out.set(e.endpoint, [...(out.get(e.endpoint) ?? []), e]);
  return out;
}

/** Each 200 search answer of the run, in the shape of §2 (the first that is not, named). */
function judgeSearches(t: TestContext, answers: readonly SpecExchange[]): void {
  if (answers.length === 0) {
    t.observe('SEARCH-SHAPE', 'no search of the run before this test was answered 200');
    return;
  }
  const wrong = answers.map((e) => ({ e, found: searchSchema(e.response) })).filter(({ found }) => !found.ok);
  const [first] = wrong;
  const tests = [...new Set(answers.map((e) => e.test ?? 'tack'))].length;
  t.soft(
    'SEARCH-SHAPE',
    `every search answered 200 in this run (${answers.length}, from ${tests} test(s), personal and partner-minted tokens alike)`,
    finding(
      first === undefined,
      'the search result schema in every answer',
      first === undefined ? 'holds in all' : `${wrong.length} of ${answers.length} not: in a search of ${first.e.test ?? 'tack'}: ${first.found.actual}`,
    ),
  );
}
