/**
 * How an uncaught error ends the process: commander's own exits keep their code, tack's coded
 * errors print their code and message (already redacted), anything else is exit 2 with its message.
 */
import { CommanderError } from 'commander';
import { EXIT, TackError } from '../harness/errors.js';

export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // A command line commander refused (unknown command or option, missing argument) is a usage
    // error: exit 2, like every other configuration error.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0 ? EXIT.ok : EXIT.config;
  }
  if (error instanceof TackError) return error.exitCode;
  return EXIT.incomplete;
}

export function formatFatal(error: unknown): string {
  if (error instanceof CommanderError) return '';
  if (error instanceof TackError) return `tack: ${error.code}: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `tack: ${message}`;
}
