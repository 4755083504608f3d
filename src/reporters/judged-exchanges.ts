/**
 * What a reader needs next to a verdict: the exchanges that judged the rule, the request to send
 * again (as curl) and, for a property, the command that replays it.
 */
import type { Exchange } from '../harness/transcript.js';
import { curlOf, type ShellSecrets } from './curl.js';
import { doesNotHold, type RuleResult } from '../runner/results.js';
import type { ReportRule, Reproduction } from './results-schema.js';

/** How many exchanges of a test stand for a rule that has no check to point at them (an error). */
const ERROR_CONTEXT = 8;

interface EvidenceContext {
  /** Redacted exchanges by sequence number. */
  readonly exchanges: ReadonlyMap<number, Exchange>;
  readonly secrets: ShellSecrets;
  /** Requests to this address prefix (the test hook) set the scene; they are never the one reproduced. */
  readonly hookUrl: string | undefined;
  /** Added to every replay command (`--env-file F`, `--fault X`). */
  readonly replayArgs: readonly string[];
  /** Offer a curl command that sends the judged request again (not for a client's requests: tack did not send them). */
  readonly reproduce?: boolean;
}

export function withEvidence(rule: RuleResult, ctx: EvidenceContext): ReportRule {
  const failed = rule.checks.filter((c) => !c.ok);
  const judged = failed.length > 0 ? failed : rule.checks;
  let seqs = [...new Set(judged.flatMap((c) => c.exchanges))].sort((a, b) => a - b);
  if (seqs.length === 0 && rule.status === 'error') {
    const tests = new Set(rule.tests);
    seqs = [...ctx.exchanges.values()]
      .filter((e) => e.test !== undefined && tests.has(e.test))
      .map((e) => e.seq)
      .slice(-ERROR_CONTEXT);
  }
  // cutShort is the runner's own (results.json says it in `unverified`, in words).
  const { cutShort: _, ...written } = rule;
  const out: { -readonly [K in keyof ReportRule]: ReportRule[K] } = { ...written, exchanges: seqs };
  if (doesNotHold(rule.status)) {
    // The request reproduced is the last one made before the first failed verdict (for a check,
    // the response it judged); for an error, the last one the test made.
    const candidates = failed.length > 0 ? failed[0]!.exchanges : seqs;
    const reproduce = ctx.reproduce === false ? undefined : reproduction(candidates, ctx);
    if (reproduce) out.reproduce = reproduce;
    const replay = failed.find((c) => c.replay)?.replay;
    if (replay) out.replay = replayCommand(rule.id, replay, ctx.replayArgs);
  }
  return out;
}

/** The command that replays a property's failing run on `rule`; `args` reach the same target (`replayArgs`). */
export function replayCommand(rule: string, replay: { readonly seed: number; readonly path?: string | undefined }, args: readonly string[]): string {
  return ['tack run', `--seed ${replay.seed}`, ...(replay.path ? [`--path ${replay.path}`] : []), `--only ${rule}`, ...args].join(' ');
}

/** What a replay command must repeat so that it runs against the same target: the env file, the faults of the built-in server. */
export function replayArgs(run: { readonly envFile?: string | undefined; readonly faults: readonly string[] }, builtIn: boolean): string[] {
  return [...(run.envFile ? [`--env-file ${shellQuote(run.envFile)}`] : []), ...(builtIn ? run.faults.map((f) => `--fault ${f}`) : [])];
}

function shellQuote(text: string): string {
  return /^[\w./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function reproduction(seqs: readonly number[], ctx: EvidenceContext): Reproduction | undefined {
  for (let i = seqs.length - 1; i >= 0; i--) {
    const exchange = ctx.exchanges.get(seqs[i]!);
    if (!exchange) continue;
    if (ctx.hookUrl !== undefined && exchange.request.url.startsWith(ctx.hookUrl)) continue;
    const { curl, variables } = curlOf(exchange, ctx.secrets);
    return { exchange: exchange.seq, curl, variables };
  }
  return undefined;
}
