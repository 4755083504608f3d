/** Small parsers and options shared by the sub-commands. Argument parsing itself is commander's. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { closest, distance } from 'fastest-levenshtein';
import { TackError } from '../harness/errors.js';
import { isClientRule, isRuleId, RULES } from '../rules/catalog.js';

/**
 * `--reports-dir <dir>`: where the run folder goes, the one name every command uses (`tack run`,
 * `certify`, `client`, `certify client`, `baseline write`, `load`); `--reports`, its former name, is
 * still read but not shown.
 */
export function reportsDirOption(command: Command, description = 'where the run folder is written (under the current directory by default)'): Command {
  return command.option('--reports-dir <dir>', description, 'reports').addOption(new Option('--reports <dir>', 'the former name of --reports-dir').hideHelp());
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

export function parseList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ];
}

export function parseIntOption(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`${flag} takes a whole number, got "${value}"`);
    return n;
  };
}
