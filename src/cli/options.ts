/**
 * The option grammar of every sub-command (docs/configuration.md, "Options"): one parser per kind
 * of value (duration, rate, count, number, percentage, header pair, list), each refusing a value
 * with one error, `OptionError` (TACK_ERR_USAGE, naming the option and the fix); the options several
 * sub-commands share; and the former spellings that still work, each with a one-line notice.
 * Argument parsing itself is commander's.
 */
import { type Command, Option } from 'commander';
import { closest, distance } from 'fastest-levenshtein';
import { TackError } from '../harness/errors.js';
import { isClientRule, isRuleId, RULES } from '../rules/catalog.js';

/** The kinds of option value, each with its one parser below. */
export type OptionKind = 'duration' | 'rate' | 'count' | 'number' | 'percentage' | 'percentage-or-rate' | 'header-pair';

/** A value an option refused: a usage error (exit 2) naming the option, what it takes, and what it got. */
export class OptionError extends TackError {
  readonly option: string;
  readonly kind: OptionKind;

  /** `takes`: what the option takes, with an example, e.g. "a duration such as 30s". */
  constructor(option: string, kind: OptionKind, takes: string, got: string) {
    super('TACK_ERR_USAGE', `${option} takes ${takes} (got "${got}")`);
    this.name = 'OptionError';
    this.option = option;
    this.kind = kind;
  }
}

const NUMBER = String.raw`(\d+(?:\.\d+)?)`;

const DURATION_UNITS_MS = { us: 0.001, µs: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
type DurationUnit = keyof typeof DURATION_UNITS_MS;

/**
 * A duration, `30s`, `500ms`, `2m`, `1.5h` (also `us`), in whole milliseconds. A bare number is in
 * the option's own unit (`bare`: seconds unless the option always took milliseconds).
 */
export function parseDuration(text: string, option: string, limits: { bare?: 's' | 'ms'; minMs?: number; maxMs?: number } = {}): number {
  const m = new RegExp(String.raw`^\s*${NUMBER}\s*(us|µs|ms|s|m|h)?\s*$`).exec(text);
  const ms = m ? Math.round(Number(m[1]) * DURATION_UNITS_MS[(m[2] ?? limits.bare ?? 's') as DurationUnit]) : Number.NaN;
  const minMs = limits.minMs ?? 0;
  const maxMs = limits.maxMs ?? Number.POSITIVE_INFINITY;
  if (!(ms >= minMs && ms <= maxMs)) {
    const range =
      maxMs < Number.POSITIVE_INFINITY ? ` from ${durationText(minMs)} to ${durationText(maxMs)}` : minMs > 0 ? ` of at least ${durationText(minMs)}` : '';
    throw new OptionError(option, 'duration', `a duration${range} such as 30s, 500ms or 2m`, text);
  }
  return ms;
}

/** Whole milliseconds spelt as an option takes them, `2m`, `30s`, `500ms` (parseDuration reads them back; src/text/duration.ts says durations in words). */
export function durationText(ms: number): string {
  for (const unit of ['h', 'm', 's'] as const) if (ms > 0 && ms % DURATION_UNITS_MS[unit] === 0) return `${ms / DURATION_UNITS_MS[unit]}${unit}`;
  return `${ms}ms`;
}

/** A rate in requests per second, `2000` or `2000/s`: a number, 0 or more (each command says how much it needs). */
export function parseRate(text: string, option: string): number {
  const m = new RegExp(String.raw`^\s*${NUMBER}\s*(?:/\s*s)?\s*$`).exec(text);
  if (!m) throw new OptionError(option, 'rate', 'requests per second, e.g. 2000 or 2000/s', text);
  return Number(m[1]);
}

/** A whole number within `min..max` (0 and up by default). */
export function parseCount(text: string, option: string, limits: { min?: number; max?: number } = {}): number {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  const min = limits.min ?? 0;
  const max = limits.max ?? Number.MAX_SAFE_INTEGER;
  if (!(Number.isSafeInteger(n) && n >= min && n <= max)) {
    throw new OptionError(option, 'count', `a whole number${limits.max === undefined ? ` of at least ${min}` : ` from ${min} to ${max}`}`, text);
  }
  return n;
}

/** A plain number (a factor, vCPUs), e.g. `1.5`. */
export function parseNumber(text: string, option: string, example: string): number {
  const m = new RegExp(String.raw`^\s*${NUMBER}\s*$`).exec(text);
  if (!m) throw new OptionError(option, 'number', `a number, e.g. ${example}`, text);
  return Number(m[1]);
}

/**
 * A percentage, `10%` (0 needs no sign), within `min..max`. `bare: 'percent'` also reads a bare
 * number as percent: for an option whose name says so (`--tolerance-pct`) and for former spellings.
 */
export function parsePercentage(text: string, option: string, limits: { min?: number; max?: number; bare?: 'percent' } = {}): number {
  const m = new RegExp(String.raw`^\s*${NUMBER}\s*(%?)\s*$`).exec(text);
  const pct = m && (m[2] === '%' || limits.bare === 'percent' || Number(m[1]) === 0) ? Number(m[1]) : Number.NaN;
  const min = limits.min ?? 0;
  const max = limits.max ?? Number.POSITIVE_INFINITY;
  if (!(pct >= min && pct <= max)) {
    const range = max === Number.POSITIVE_INFINITY ? `${min}% or more` : `${min}% to ${max}%`;
    throw new OptionError(option, 'percentage', `a percentage, ${range}, e.g. 10%`, text);
  }
  return pct;
}

/** A share of a figure (`10%`, more than 0 and less than 100) or a rate (`50`, req/s, more than 0). */
export function parsePercentageOrRate(text: string, option: string): { readonly pct: number } | { readonly rps: number } {
  const pct = /%\s*$/.test(text) ? parsePercentage(text, option, {}) : undefined;
  const rps = pct === undefined ? parseRate(text, option) : undefined;
  if (pct !== undefined && pct > 0 && pct < 100) return { pct };
  if (rps !== undefined && rps > 0) return { rps };
  throw new OptionError(option, 'percentage-or-rate', 'a share such as 10% (less than 100%) or requests per second such as 50', text);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Two different HTTP header names, comma-separated: `X-Key-Id,X-Key-Secret`. */
export function parseHeaderPair(text: string, option: string): readonly [string, string] {
  const names = text.split(',').map((s) => s.trim());
  if (names.length !== 2 || !names.every((n) => HEADER_NAME.test(n)) || names[0]!.toLowerCase() === names[1]!.toLowerCase()) {
    throw new OptionError(option, 'header-pair', 'two different HTTP header names, comma-separated, e.g. X-Key-Id,X-Key-Secret', text);
  }
  return [names[0]!, names[1]!];
}

/** A comma-separated list; repeating the option adds to it. */
export function parseList(value: string, previous: readonly string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ];
}

/** A repeatable option: each value added. */
export function repeatable(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/** The line a former spelling prints on stderr, once per use; scripts match on `TACK_DEPRECATED`. */
export function deprecationNotice(former: string, now: string): string {
  return `tack: TACK_DEPRECATED: ${former} is now spelt ${now}; the old spelling still works\n`;
}

/**
 * A former spelling of an option, hidden from help: it still works (its value is kept under its own
 * name, and the command reads it in place of the new one) and prints `deprecationNotice` when used.
 */
export function formerOption(
  command: Command,
  flags: string,
  now: string,
  parse?: (value: string) => unknown,
  notify: (line: string) => void = (line) => process.stderr.write(line),
): Command {
  const option = new Option(flags, `the former spelling of ${now}`).hideHelp();
  if (parse) option.argParser(parse);
  command.addOption(option);
  return command.on(`option:${option.name()}`, () => notify(deprecationNotice(option.long!, now)));
}

/** `--env-file <file>`, the same on every command that reads the `TACK_*` variables. */
export function envFileOption(command: Command): Command {
  return command.option('--env-file <file>', 'load TACK_* variables from a dotenv file first (run tack as npx -- tack when the file may be missing)');
}

/**
 * `--reports-dir <dir>`: where the run folder goes, the one name every command uses (`tack run`,
 * `certify`, `client`, `certify client`, `baseline write`, `load`); `--reports`, its former name,
 * still works.
 */
export function reportsDirOption(command: Command, description = 'where the run folder is written (under the current directory by default)'): Command {
  return formerOption(command.option('--reports-dir <dir>', description, 'reports'), '--reports <dir>', '--reports-dir');
}

/** The folder `reportsDirOption` gave: `--reports` when the former name was used, else `--reports-dir`. */
export function reportsDirOf(opts: { readonly reports?: string; readonly reportsDir: string }): string {
  return opts.reports ?? opts.reportsDir;
}

/**
 * The rule ids of `--only`, each known; an unknown one is a usage error naming the closest id
 * ("did you mean"). `kind` says which rules the command judges.
 */
export function checkOnly(only: readonly string[], kind: 'server' | 'client'): void {
  const unknown = only.filter((id) => !isRuleId(id));
  if (unknown.length > 0) {
    const ids = RULES.map((r) => r.id);
    const hints = unknown.map((id) => {
      const near = closest(id.toUpperCase(), ids);
      return distance(id.toUpperCase(), near) <= Math.max(3, Math.floor(id.length / 4)) ? `${id} (did you mean ${near}?)` : id;
    });
    throw new TackError('TACK_ERR_USAGE', `--only names unknown rule ids: ${hints.join(', ')} (see: tack rules)`);
  }
  const other = only.filter((id) => isClientRule(id) !== (kind === 'client'));
  if (other.length > 0 && kind === 'server') {
    throw new TackError('TACK_ERR_USAGE', `--only names client rules, which tack client judges against a program: ${other.join(', ')}`);
  }
}
