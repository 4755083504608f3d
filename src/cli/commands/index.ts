import type { Command } from 'commander';
import { registerRules } from './rules.js';
import { registerRun } from './run.js';
import { registerServe } from './serve.js';

/** Every sub-command, in the order `tack --help` lists them. */
export function registerCommands(program: Command): void {
  registerRun(program);
  registerRules(program);
  registerServe(program);
}
