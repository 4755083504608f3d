/**
 * `tack baseline write [--from reports/<run-id>/results.json] [--out FILE]`: a baseline of expected
 * failures and accepted skips (MUST rules not checked) from a run (the latest under --reports-dir by
 * default), each naming its check. Use it with `tack run --baseline FILE`.
 */
import type { Command } from 'commander';
import { reportsDirOf, reportsDirOption } from '../options.js';
import { EXIT, TackError } from '../../harness/errors.js';
import { baselineFrom, writeBaseline } from '../../runner/baseline.js';
import { latestResults, readResults } from '../../reporters/json.js';

interface BaselineWriteOptions {
  from?: string;
  out: string;
  reports: string;
}

export function registerBaseline(program: Command): void {
  const baseline = program.command('baseline').description('expected failures: known deviations that do not fail `tack run --baseline FILE`');
  const write = baseline
    .command('write')
    .description('write a baseline of every rule that did not hold, and every MUST rule not checked, in a run (the latest by default)')
    .option('--from <results.json>', 'the results.json of the run (default: the latest run under --reports-dir)')
    .option('--out <file>', 'where to write the baseline', 'tack-baseline.json');
  reportsDirOption(write, 'where runs are written').action((opts: BaselineWriteOptions & { reportsDir: string }) => {
    process.exitCode = baselineWriteCommand({ ...opts, reports: reportsDirOf(opts) }, (s) => process.stdout.write(s));
  });
}

export function baselineWriteCommand(opts: BaselineWriteOptions, write: (s: string) => void): number {
  const from = opts.from ?? latestResults(opts.reports);
  if (from === undefined)
    throw new TackError('TACK_ERR_USAGE', `no run found under ${opts.reports}/: run tack run first, or give --from reports/<run-id>/results.json`);
  const doc = readResults(from);
  const baseline = baselineFrom(doc);
  writeBaseline(opts.out, baseline);
  const skips = baseline.expected.filter((e) => e.status === 'skipped').length;
  const failures = baseline.expected.length - skips;
  write(`Wrote ${opts.out}: ${failures} expected failure(s) and ${skips} accepted skip(s) of MUST rules from run ${doc.run.id} (${from}).\n`);
  for (const e of baseline.expected) write(`  ${e.rule} ${e.status}: ${e.checks?.join(', ') ?? e.check}\n`);
  if (baseline.expected.length > 0) {
    write("Each entry carries the run's reason: replace it with why the deviation is accepted, and remove the entries you do not accept.\n");
  }
  write(`Use it: tack run --baseline ${opts.out}\n`);
  return EXIT.ok;
}
