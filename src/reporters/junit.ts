/**
 * `junit.xml`: one testsuite per area, one testcase per rule.
 *
 * - failed: `<failure>` with the failed checks (expected vs actual) as content.
 * - warning (a SHOULD not met): a `<failure>` only with `--strict`; otherwise it passes and says so
 *   in `<system-out>` and in the `tack.status` property, so CI stays green but the text is there.
 * - error: `<error>`. skipped: `<skipped message="reason">`; but a MUST rule not checked under
 *   `--require-all` fails the run, so it is a `<failure message="not checked (--require-all): ...">`.
 * - an expected failure or an accepted skip from the baseline: `<skipped message="expected failure
 *   (baseline): ...">` / `"not checked, accepted (baseline): ..."` with the entry's reason, the way
 *   test runners report an expected failure (xfail), so it does not fail the build.
 */
import junitModule from 'junit-report-builder';
import type { Builder, TestCase as JunitCase } from 'junit-report-builder';
import { byArea, uncheckedFailing } from './outcome-words.js';
import type { ReportRule, ResultsDocument } from './results-schema.js';

// The package is CommonJS (`module.exports = builder`) typed as an ES default export, so under
// NodeNext the default import is the builder at run time whatever the typings say.
const root = (junitModule as unknown as { default?: Builder }).default ?? (junitModule as unknown as Builder);

/** Characters XML 1.0 cannot carry at all (xmlbuilder throws on them). */
const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe for an attribute or a CDATA section: no illegal characters, no `]]>`. */
function xml(text: string): string {
  return text.replace(ILLEGAL_XML, '\uFFFD').replace(/]]>/g, ']] >');
}

export function renderJunit(doc: ResultsDocument): string {
  const builder = root.newBuilder();
  builder.name(xml(`tack ${doc.run.id}`));
  if (doc.error) {
    // The run ended before a verdict (configuration error, unreachable target, deadline): one error
    // test case, so a pipeline's JUnit step shows why instead of finding nothing.
    const suite = builder.testSuite().name('tack').timestamp(doc.run.startedAt);
    suite
      .testCase()
      .className('tack.run')
      .name(xml(`tack run ${doc.run.id}`))
      .error(xml(doc.error.message), xml(doc.error.code));
  }
  for (const group of byArea(doc.rules)) {
    const suite = builder.testSuite().name(xml(group.label)).timestamp(doc.run.startedAt);
    suite.property('tack.area', group.area);
    for (const rule of group.rules) addCase(suite.testCase(), rule, doc);
  }
  return builder.build();
}

function addCase(tc: JunitCase, rule: ReportRule, doc: ResultsDocument): void {
  tc.className(`tack.${rule.area}`)
    .name(xml(`${rule.id}: ${rule.text}`))
    .time(rule.durationMs / 1000);
  tc.property('tack.rule', rule.id).property('tack.level', rule.level).property('tack.section', rule.section).property('tack.status', rule.status);
  if (rule.baseline) tc.property('tack.baseline', rule.baseline);
  if (rule.replay) tc.property('tack.replay', xml(rule.replay));
  const details = xml(detailText(rule));
  const reason = xml(rule.reason);
  if (rule.baseline === 'expected' || rule.baseline === 'accepted') {
    const what = rule.baseline === 'expected' ? `expected failure (baseline): ${rule.status}` : 'not checked, accepted (baseline)';
    skippedWithMessage(tc, `${what}: ${xml(rule.baselineReason ?? '')}: ${reason}`);
    tc.standardOutput(details);
    return;
  }
  if (uncheckedFailing(rule, doc)) {
    // --require-all: a MUST rule not checked fails the run, so CI widgets must count it as a failure.
    tc.failure(`not checked (--require-all): ${reason}`, 'MUST').stacktrace(details);
    return;
  }
  switch (rule.status) {
    case 'failed':
      tc.failure(reason, 'MUST').stacktrace(details);
      break;
    case 'warning':
      if (doc.run.strict) tc.failure(reason, 'SHOULD').stacktrace(details);
      else tc.standardOutput(`WARNING: SHOULD not met (not a failure without --strict): ${reason}\n\n${details}`);
      break;
    case 'error':
      tc.error(reason, 'error', details);
      break;
    case 'skipped':
      skippedWithMessage(tc, reason);
      tc.standardOutput(`skipped: ${reason}`);
      break;
    case 'passed':
      tc.standardOutput(
        xml(`${rule.reason}${rule.observations.length ? `\n\nObserved (the spec leaves it open):\n${rule.observations.map((o) => `- ${o}`).join('\n')}` : ''}`),
      );
      break;
  }
}

/** The checks that judged the rule, the replay and the curl command, as plain text. */
function detailText(rule: ReportRule): string {
  const lines: string[] = [`${rule.id} [${rule.level}] ${rule.section}: ${rule.text}`, `status: ${rule.status}: ${rule.reason}`];
  const failed = rule.checks.filter((c) => !c.ok);
  for (const c of failed.length > 0 ? failed : rule.checks) {
    lines.push(
      `${c.ok ? 'ok' : 'FAILED'}: ${c.title}`,
      `  expected: ${c.expected}`,
      `  actual:   ${c.actual}`,
      `  exchanges: ${c.exchanges.join(', ') || '-'} (transcript.jsonl seq)`,
      ...(c.id !== undefined ? [`  id: ${c.id} (what a baseline waives)`] : []),
    );
    if (c.screenshot) lines.push(`  page: ${c.screenshot.page}: ${c.screenshot.file ?? c.screenshot.withheld ?? 'no screenshot'}`);
  }
  for (const o of rule.observations) lines.push(`observed: ${o}`);
  if (rule.replay) lines.push(`replay: ${rule.replay}`);
  if (rule.reproduce) lines.push(`reproduce (set ${rule.reproduce.variables.map((v) => v.name).join(', ') || 'nothing'}):`, rule.reproduce.curl);
  return lines.join('\n');
}

/**
 * junit-report-builder writes `<skipped/>` without the reason; CI tools show the `message`
 * attribute, so the element is given one as it is built.
 */
function skippedWithMessage(tc: JunitCase, message: string): void {
  tc.skipped();
  const build = tc.build.bind(tc);
  tc.build = (parent) => {
    const element = build(parent);
    for (const child of element.children) {
      const node = child as { name?: unknown; att?: (name: string, value: string) => unknown };
      if (node.name === 'skipped' && typeof node.att === 'function') node.att('message', message);
    }
    return element;
  };
}
