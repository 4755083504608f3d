/**
 * `tack annotate RESULTS [--format github]`: one CI annotation per rule that did not hold, from a
 * results.json: `::error` for a failed MUST rule and for a rule that could not be checked,
 * `::warning` for a SHOULD rule not met, each titled with the rule id (GitHub Actions workflow
 * commands). The GitHub Action runs it after `tack run`.
 */
import type { Command } from 'commander';
import { readResults } from '../../reporters/json.js';

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
  for (const rule of doc.rules) {
    const kind = rule.status === 'failed' || rule.status === 'error' ? 'error' : rule.status === 'warning' ? 'warning' : undefined;
    if (kind === undefined || rule.baseline === 'expected') continue;
    const what = rule.status === 'error' ? 'could not be checked' : `${rule.level} rule not met`;
    lines.push(`::${kind} title=${property(`${rule.id} (${rule.section})`)}::${data(`${what}: ${rule.reason}`)}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
