/**
 * The parts of report.html that only a `tack client` run has: what ran (profile, command, limits)
 * for the header, and the client runs section: per scenario, each run of the command with how it
 * ended, the requests it sent (links to the exchanges shown with the rules) and the end of its
 * stdout and stderr, redacted like everything else.
 */
import { esc } from '../text/escape-html.js';
import type { ClientReport, ClientRunReport } from './results-schema.js';

/** Header rows describing the client run. */
export function clientMetaRows(client: ClientReport): [string, string][] {
  const rows: [string, string][] = [
    ['client', client.command],
    ['profile', client.profile],
    ['server', "tack's scripted reference server, a fresh one per scenario, one loopback port per host role"],
    ['limits', `each run ${client.runTimeoutS} s and ${client.maxRequests} requests at most; all scenarios ${client.deadlineS} s`],
  ];
  if (client.partnerHeaders.length > 0) rows.push(['partner headers', client.partnerHeaders.join(', ')]);
  if (client.passEnv.length > 0) rows.push(['passed on', client.passEnv.join(', ')]);
  return rows;
}

export function clientRunsSection(client: ClientReport): string {
  const head = '<thead><tr><th>run</th><th>ended</th><th>time</th><th>requests</th></tr></thead>';
  const scenarios = client.scenarios.map((s) => {
    const body =
      s.notPlayed !== undefined
        ? `<p class="muted">Not played: ${esc(s.notPlayed)}</p>`
        : `<table class="checks">${head}<tbody>${s.runs.map(runRow).join('')}</tbody></table>${s.runs.map(output).join('')}`;
    const title = `<h3>${esc(s.id)}</h3><p class="rule-text">${esc(s.title)}</p>`;
    return `<section class="client-scenario" id="scenario-${esc(s.id)}">${title}${body}</section>`;
  });
  return `<h2 id="client-runs">Client runs</h2>
<p>Each scenario ran <code>${esc(client.command)}</code> against a fresh scripted server with the PAYROLL_* variables of the contract.
Requests are numbered as in <code>transcript.jsonl</code>.</p>
${scenarios.join('\n')}`;
}

function runRow(run: ClientRunReport): string {
  const links = run.exchanges
    .slice(0, 40)
    .map((seq) => `#${seq}`)
    .join(' ');
  const requests = `${run.requests} ${esc(links)}${run.exchanges.length > 40 ? ' …' : ''}`;
  return `<tr><td class="num">${run.run}</td><td>${esc(ended(run))}</td><td class="num">${run.durationMs} ms</td><td>${requests}</td></tr>`;
}

function ended(run: ClientRunReport): string {
  switch (run.end) {
    case 'exited':
      return run.exitCode !== null ? `exit ${run.exitCode}` : `signal ${run.signal ?? '?'}`;
    case 'timed-out':
      return 'stopped: did not finish in time';
    case 'cut-off':
      return 'stopped: too many requests';
    case 'not-started':
      return `not started: ${run.startProblem ?? '?'}`;
  }
}

function output(run: ClientRunReport): string {
  const streams = (['stdout', 'stderr'] as const).filter((name) => run[name] !== '');
  if (streams.length === 0) return '';
  const blocks = streams.map((name) => `<h4>${name}${run.outputTruncated ? ' (more was written than tack keeps)' : ''}</h4><pre>${esc(run[name])}</pre>`);
  return `<details class="client-output"><summary>run ${run.run}: output</summary>${blocks.join('')}</details>`;
}
