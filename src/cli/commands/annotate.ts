/**
 * `tack annotate RESULTS [--format github]`: one CI annotation per rule that did not hold, from a
 * results.json: `::error` for a failed MUST rule, for a rule that could not be checked, and for a
 * MUST rule not checked when the run demanded every one (`--require-all`, unless the baseline
 * accepts the skip); `::warning` for a SHOULD rule not met, each titled with the rule id (GitHub Actions workflow
 * commands). The GitHub Action runs it after `tack run`.
 */
import type { Command } from 'commander';
import { readResults } from '../../reporters/json.js';
import { notHolding, uncheckedFailing } from '../../reporters/outcome-words.js';

export function registerAnnotate(program: Command): void {
  program
    .command('annotate <results>')
    .description('print one CI annotation per rule that did not hold in a results.json (GitHub Actions workflow commands)')
    .action((results: string) => {
      process.stdout.write(githubAnnotations(results));
    });
}

/** Workflow-command escaping: data escapes % CR LF; properties also : and ,. */
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function githubAnnotations(resultsFile: string): string {
  const doc = readResults(resultsFile);
  const lines: string[] = [];
  if (doc.error) lines.push(`::error title=${property(doc.error.code)}::${data(doc.error.message)}`);
  for (const rule of notHolding(doc)) {
    if (rule.baseline === 'expected') continue;
    const unchecked = uncheckedFailing(rule, doc);
    const kind = rule.status === 'warning' ? 'warning' : 'error';
    const what = unchecked ? 'MUST rule not checked (--require-all)' : rule.status === 'error' ? 'could not be checked' : `${rule.level} rule not met`;
    lines.push(`::${kind} title=${property(`${rule.id} (${rule.section})`)}::${data(`${what}: ${rule.reason}`)}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
