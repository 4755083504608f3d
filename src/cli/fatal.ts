/**
 * How an uncaught error ends the process: commander's own exits keep their code, tack's coded
 * errors print their code and message (already redacted), anything else is exit 2 with its message.
 */
import { CommanderError } from 'commander';
import { TackError } from '../harness/errors.js';

export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : error.exitCode || 2;
  }
  if (error instanceof TackError) return error.exitCode;
  return 2;
}

export function formatFatal(error: unknown): string {
  if (error instanceof CommanderError) return '';
  if (error instanceof TackError) return `tack: ${error.code}: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `tack: ${message}`;
}
