/**
 * The `tack` command line. Each sub-command lives in its own module under `commands/` and
 * registers itself on the program; this file only wires them together.
 */
import { Command } from 'commander';
import { TACK_VERSION } from '../version.js';
import { registerCommands } from './commands/index.js';
import { exitCodeFor, formatFatal } from './fatal.js';

const program = new Command('tack')
  .description('Tenant Access Conformance Kit: check any implementation of the tenant API access spec')
  .version(TACK_VERSION, '-V, --version', "print tack's version")
  .showHelpAfterError()
  // A command line commander refuses (an unknown option, a missing value) is a usage error like any
  // value an option refuses (src/cli/options.ts): the same code, for scripts to match on.
  .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'tack: TACK_ERR_USAGE: ')) })
  .exitOverride();

const first = process.argv[2];
// `tack --version` needs no command: loading them all would cost most of a second.
if (first !== '--version' && first !== '-V') await registerCommands(program, first !== undefined && !first.startsWith('-') ? first : undefined);
// The program has no options of its own: everything after a sub-command's name is that sub-command's
// to parse, so `tack certify client --reports D -- cmd` gives --reports to `certify client`, not to
// `certify`. Set after the sub-commands are made, so they do not inherit it.
program.enablePositionalOptions();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const code = exitCodeFor(error);
  if (code !== 0) process.stderr.write(`${formatFatal(error)}\n`);
  process.exitCode = code;
}
