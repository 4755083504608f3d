/**
 * `tack serve`: starts the built-in reference server, prints its hosts and what to do next, and
 * writes a ready-to-use env file (mode 0600) with the TACK_* variables (with --hookless also
 * TACK_USER_EMAIL, TACK_USER_PASSWORD and TACK_API_TOKEN_FILE). Secrets go into that file only,
 * never onto the console. Ctrl-C / SIGTERM close the server and exit 0, and remove the env file,
 * the token file and the pid file it wrote.
 *
 * For scripts: `--pid-file FILE` writes the process id, and once the server answers, one line of
 * JSON goes to stdout, starting with `TACK_READY ` (`{"envFile","tenants","identity","hook","pid"}`):
 * wait for it, then run tack against the env file.
 */
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { TackError } from '../../harness/errors.js';
import { FAULTS, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { parseCount, parseDuration, parseHeaderPair, parseList, repeatable } from '../options.js';

export interface ServeOptions {
  port: number;
  bind: string;
  fault: string[];
  listFaults: boolean;
  envOut: string;
  partnerHeaders?: readonly [string, string];
  hookless: boolean;
  /** The hook's capabilities, when fewer than all (a target whose hook offers less). */
  hookCapabilities?: readonly string[];
  /** Where to write the process id (removed on exit). */
  pidFile?: string;
  /** Milliseconds the token store takes to answer a rotation (default 0, or what a race fault brings). */
  storeDelayMs?: number;
}

/** The line a script waits for before it runs tack against the env file. */
export const READY_PREFIX = 'TACK_READY ';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the built-in reference server and write an env file for `tack run`')
    .option('--port <n>', 'port to listen on (0 = any free port)', (v: string) => parseCount(v, '--port', { max: 65535 }), 0)
    .option('--bind <addr>', 'address to bind (loopback by default)', '127.0.0.1')
    .addOption(new Option('--fault <name>', 'inject a named fault (repeatable; see --list-faults)').argParser(repeatable).default([]))
    .option('--list-faults', 'print every fault with the rule(s) it breaks, then exit', false)
    .option('--env-out <file>', 'where to write the TACK_* variables (mode 0600)', '.tack/reference.env')
    .option('--partner-headers <a,b>', 'partner credential header names (default Tenant-Key-1,Tenant-Key-2)', (v: string) =>
      parseHeaderPair(v, '--partner-headers'),
    )
    .option('--hookless', 'leave the test hook out of the env file; write an API token file instead', false)
    .option('--hook-capabilities <list>', 'offer only these test hook capabilities (comma-separated; default all)', parseList)
    .option('--pid-file <file>', "write this process's id to a file (removed on exit)")
    .option(
      '--store-delay-ms <time>',
      'the token store answers each rotation after this wait, a real one, e.g. 50ms, at most 10s (a bare number is ms; default 0, or what a race fault brings)',
      parseStoreDelay,
    )
    .action(async (opts: ServeOptions) => {
      await serveCommand(opts, (s) => process.stdout.write(s), waitForSignal);
    });
}

function parseStoreDelay(value: string): number {
  return parseDuration(value, '--store-delay-ms', { bare: 'ms', maxMs: 10_000 });
}

/** The whole command as a function: `waitForStop` resolves when the server should stop. */
export async function serveCommand(opts: ServeOptions, write: (s: string) => void, waitForStop: () => Promise<string>): Promise<void> {
  if (opts.listFaults) {
    write(listFaults());
    return;
  }
  let server: ReferenceServer;
  try {
    server = await startReferenceServer({
      port: opts.port,
      bind: opts.bind,
      faults: opts.fault,
      ...(opts.partnerHeaders === undefined ? {} : { partnerHeaders: opts.partnerHeaders }),
      ...(opts.hookCapabilities === undefined ? {} : { hookCapabilities: opts.hookCapabilities }),
      ...(opts.storeDelayMs === undefined ? {} : { storeDelayMs: opts.storeDelayMs }),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TackError('TACK_ERR_USAGE', `${message}${opts.fault.length > 0 ? ' (see: tack serve --list-faults)' : ''}`, { cause: error });
  }
  const envFile = resolve(opts.envOut);
  const tokenFile = opts.hookless ? apiTokenFileFor(envFile) : undefined;
  try {
    const env = { ...server.env };
    if (tokenFile !== undefined) {
      delete env['TACK_HOOK_URL'];
      delete env['TACK_HOOK_TOKEN'];
      env['TACK_USER_EMAIL'] = server.userEmail;
      env['TACK_USER_PASSWORD'] = server.userPassword;
      env['TACK_API_TOKEN_FILE'] = tokenFile;
      await writeSecretFile(tokenFile, server.issueApiToken('acme', server.userEmail));
    }
    await writeSecretFile(envFile, toDotenv(env));
  } catch (error) {
    await server.close();
    throw error;
  }
  const pidFile = opts.pidFile === undefined ? undefined : resolve(opts.pidFile);
  if (pidFile !== undefined) await writeSecretFile(pidFile, `${process.pid}\n`);
  // Listen for Ctrl-C / SIGTERM before saying how to stop: a signal sent on reading the banner
  // must find the handler in place.
  const stopping = waitForStop();
  write(banner(server, opts, envFile, tokenFile));
  const ready = {
    envFile,
    tenants: server.urls.tenants,
    identity: server.urls.identity,
    hook: tokenFile === undefined ? server.urls.hook : null,
    pid: process.pid,
  };
  write(`${READY_PREFIX}${JSON.stringify(ready)}\n`);
  const signal = await stopping;
  write(`\n${signal}: stopping the reference server\n`);
  await server.close();
  // What this run wrote holds secrets of a server that is gone: nothing is left behind.
  await Promise.all([envFile, tokenFile, pidFile].map((file) => (file === undefined ? undefined : rm(file, { force: true }))));
}

/** How often tack serve looks whether the process that started it is still there. */
const PARENT_POLL_MS = 500;

/**
 * Resolves on Ctrl-C or SIGTERM, or when the process that started tack serve has ended (tack is
 * then re-parented): `npx tack serve` runs tack under npm, which does not pass every signal on, and
 * stopping the npx the user started must not leave a server behind.
 */
function waitForSignal(): Promise<string> {
  return new Promise((resolveStop) => {
    const parent = process.ppid;
    const orphaned = setInterval(() => {
      if (process.ppid !== parent) stop('the process that started tack serve ended');
    }, PARENT_POLL_MS);
    orphaned.unref();
    const stop = (reason: string): void => {
      clearInterval(orphaned);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolveStop(reason);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function listFaults(): string {
  const width = Math.max(...FAULTS.map((f) => f.name.length));
  const lines = FAULTS.map((f) => `${f.name.padEnd(width)}  breaks ${f.rules.join(', ')}\n${' '.repeat(width + 2)}${f.description}\n`);
  return `${FAULTS.length} faults (tack serve --fault NAME, repeatable):\n\n${lines.join('')}`;
}

function banner(server: ReferenceServer, opts: ServeOptions, envFile: string, tokenFile: string | undefined): string {
  const rows: [string, string][] = [
    ...Object.entries(server.urls.tenants).map(([name, url]): [string, string] => [`tenant ${name}`, url]),
    ['sign-in', server.urls.identity],
  ];
  if (tokenFile === undefined) rows.push(['test hook', server.urls.hook]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const out = [
    `tack reference server listening on ${opts.bind}:${server.port}${server.faults.length > 0 ? ` with faults: ${server.faults.join(', ')}` : ''}`,
    ...(server.storeDelayMs > 0 ? [`  the token store answers each rotation after ${server.storeDelayMs} ms`] : []),
    ...(opts.hookCapabilities === undefined || tokenFile !== undefined ? [] : [`  the test hook offers only: ${opts.hookCapabilities.join(', ')}`]),
    ...rows.map(([label, url]) => `  ${label.padEnd(width)}  ${url}`),
    '',
    `Wrote ${envFile} (mode 0600; it holds the partner secrets${tokenFile === undefined ? ' and the hook token' : ''}).`,
  ];
  if (tokenFile !== undefined) {
    out.push(`Hookless: the API token of ${server.userEmail} is in ${tokenFile} (mode 0600); tack rewrites it on every rotation.`);
    out.push(`Their password (TACK_USER_PASSWORD, for the token page at ${server.urls.tenants['acme'] ?? ''}/account/api-tokens) is in the env file.`);
  }
  if (!isLoopback(opts.bind))
    out.push(`Note: bound to ${opts.bind}, not loopback; anyone who can reach this port can use the test hook if they learn its token.`);
  out.push('', 'Next, in another terminal:', `  tack run --env-file ${opts.envOut}`, '', 'Stop with Ctrl-C.', '');
  return out.join('\n');
}

function isLoopback(bind: string): boolean {
  return bind === '127.0.0.1' || bind === '::1' || bind === 'localhost' || bind.startsWith('127.');
}

function apiTokenFileFor(envFile: string): string {
  return join(dirname(envFile), `${basename(envFile).replace(/\.env$/, '')}.api-token`);
}

/** dotenv syntax: plain values as they are, others single-quoted (literal in dotenv). */
export function toDotenv(env: Readonly<Record<string, string>>): string {
  const lines = Object.entries(env).map(([key, value]) => {
    if (/^[A-Za-z0-9_.:/@,+\-=~%]*$/.test(value)) return `${key}=${value}`;
    if (/['\n\r]/.test(value)) throw new TackError('TACK_ERR_CONFIG', `${key} cannot be written to a dotenv file`);
    return `${key}='${value}'`;
  });
  return `# Written by tack serve: the TACK_* variables of the running reference server. Holds secrets.\n${lines.join('\n')}\n`;
}

/** Writes `content` atomically to `file` with mode 0600 (temp file in the same folder, then rename). */
async function writeSecretFile(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, content, { mode: 0o600, flag: 'w' });
    await chmod(temp, 0o600);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new TackError('TACK_ERR_CONFIG', `Could not write ${file}`, { cause: error });
  }
}
