import type { Command } from 'commander';
import { registerDoctor } from './doctor.js';
import { registerLoad } from './load.js';
import { registerBaseline } from './baseline.js';
import { registerCertify } from './certify.js';
import { registerRules } from './rules.js';
import { registerRun } from './run.js';
import { registerServe } from './serve.js';

/** Every sub-command, in the order `tack --help` lists them. */
export function registerCommands(program: Command): void {
  registerRun(program);
  registerDoctor(program);
  registerRules(program);
  registerServe(program);
  registerLoad(program);
  registerCertify(program);
  registerBaseline(program);
}
