import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every sub-command, in the order `tack --help` lists them. Modules are imported on demand: a
 * command line that names one sub-command loads only that one (start-up time matters to CI and to
 * the token-file kill test); help and unknown names load them all.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  run: async () => (await import('./run.js')).registerRun,
  client: async () => (await import('./client.js')).registerClient,
  doctor: async () => (await import('./doctor.js')).registerDoctor,
  rules: async () => (await import('./rules.js')).registerRules,
  serve: async () => (await import('./serve.js')).registerServe,
  load: async () => (await import('./load.js')).registerLoad,
  certify: async () => (await import('./certify.js')).registerCertify,
  baseline: async () => (await import('./baseline.js')).registerBaseline,
  annotate: async () => (await import('./annotate.js')).registerAnnotate,
};

export async function registerCommands(program: Command, wanted?: string): Promise<void> {
  const names = wanted !== undefined && wanted in COMMANDS ? [wanted] : Object.keys(COMMANDS);
  for (const name of names) (await COMMANDS[name]!())(program);
}
