/**
 * Runs stopped the ordinary way and killed, as real child processes (`node bin/tack.mjs run`)
 * against a reference server of this process that counts the live API tokens:
 *
 * - SIGINT (Ctrl-C) and SIGTERM (a CI timeout) once tack has generated tokens: exit 130 / 143, every
 *   report written and marked interrupted, the folder printed, no token tack generated left alive;
 *   SIGTERM in a hookless run whose tokens come from the token page (Chromium) too.
 * - SIGKILL: the run's journal lists every token it received (mode 0600, in a folder of mode 0700);
 *   the next run against the target revokes them first, says so, and leaves no token alive. The kill
 *   lands while a proxy holds tack's requests (helpers/holding-proxy.ts): nothing is in flight, so
 *   every token the server issued was delivered (a kill while an answer is in flight loses that one
 *   token: no client can revoke what it never received, docs/errors.md).
 * - A second signal exits at once; what is still live stays listed for the next run.
 * - `tack certify client` stopped while the client runs: exit 143, the client's whole process group
 *   gone, what was judged written (marked interrupted), no bundle.
 * - `tack load` stopped mid-way: exit 130, the partial result marked interrupted, its hook chains
 *   revoked.
 *
 * Each signal is sent as soon as the server has handed out the first token (or a few), not after a
 * sleep. Every run has its own journal folder (TACK_JOURNAL_DIR).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/conformance-run.js';
import { REPORT_FILES } from '../../src/reporters/index.js';
import type { ReferenceServer } from '../../src/reference/index.js';
import { HoldingProxy } from '../helpers/holding-proxy.js';
import { NO_BROWSER, targetFor, type Mode } from '../helpers/modes.js';
import { spawnTack, type TackProcess } from '../helpers/tack-process.js';
import { hasChromium } from './fault-matrix-token-page.js';
import type { ResultsDocument } from '../../src/reporters/results-schema.js';
import { scaled } from '../helpers/time-limits.js';
import { browserLimitMs } from '../helpers/browser-time.js';

const dir = mkdtempSync(join(tmpdir(), 'tack-stopped-'));
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

interface Target {
  readonly server: ReferenceServer;
  readonly env: Record<string, string>;
  readonly envFile: string;
  readonly journals: string;
  readonly reports: string;
}

/** A target of `mode`; `proxy`: reached through a proxy that can hold requests. */
async function target(mode: Mode, name: string, extra: Record<string, string> = {}, proxy?: (port: number) => Promise<HoldingProxy>): Promise<Target> {
  const { server, env: direct } = await targetFor(mode, [], {}, extra);
  servers.push(server);
  const env = proxy ? (await proxy(server.port)).rewrite(direct) : direct;
  const base = mkdtempSync(join(dir, `${name}-`));
  const journals = join(base, 'journals');
  const envFile = join(base, 'tack.env');
  const all = { ...env, TACK_JOURNAL_DIR: journals };
  writeFileSync(
    envFile,
    `${Object.entries(all)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
  );
  return { server, env: all, envFile, journals, reports: join(base, 'reports') };
}

/** A hook-mode target (no browser) reached through a proxy that can hold tack's requests. */
async function proxied(name: string): Promise<{ t: Target; proxy: HoldingProxy }> {
  let proxy: HoldingProxy | undefined;
  const t = await target('hook', name, { TACK_BROWSER: NO_BROWSER }, async (port) => {
    proxy = new HoldingProxy(port);
    await proxy.start();
    return proxy;
  });
  return { t, proxy: proxy! };
}

/** Rules whose tests generate tokens from their start (and several tests after the first). */
const TOKEN_RULES = 'SIGNIN-EXCHANGE,SIGNIN-ROTATION,SIGNIN-REVOKE,SIGNIN-CLIENT-ID,SIGNIN-GARBAGE-INVALID-GRANT,SIGNIN-NO-CORS';

function tack(t: Target, ...args: string[]): TackProcess {
  return spawnTack(['run', '--env-file', t.envFile, '--reports-dir', t.reports, ...(args.length > 0 ? args : ['--only', TOKEN_RULES])]);
}

/** Resolves once `ready()` holds (polled), or rejects when the child exits first. */
async function until(run: TackProcess, ready: () => boolean): Promise<void> {
  let exited = false;
  void run.exited.then(() => (exited = true));
  while (!ready()) {
    if (exited) throw new Error(`tack exited before the moment to stop it:\n${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function results(out: string): { dir: string; doc: ResultsDocument } {
  const found = /Reports: (.*)/.exec(out)?.[1]?.trim();
  if (found === undefined) throw new Error(`no "Reports:" line:\n${out}`);
  return { dir: found, doc: JSON.parse(readFileSync(join(found, 'results.json'), 'utf8')) as ResultsDocument };
}

function journalFiles(t: Target): string[] {
  return existsSync(t.journals) ? readdirSync(t.journals).filter((n) => n.endsWith('.journal')) : [];
}

/** Every token a journal ever listed (compared, never printed). */
function listed(t: Target): Set<string> {
  const out = new Set<string>();
  for (const name of journalFiles(t)) {
    for (const line of readFileSync(join(t.journals, name), 'utf8').split('\n')) if (line.startsWith('+')) out.add(JSON.parse(line.slice(1)) as string);
  }
  return out;
}

/** One signal once the server has handed out `tokens` tokens: the run ends interrupted, with its reports, leaving none alive. */
async function stopOnce(t: Target, signal: 'SIGINT' | 'SIGTERM', live: () => number, tokens = 1): Promise<void> {
  const before = live();
  const run = tack(t);
  await until(run, () => live() >= before + tokens);
  run.child.kill(signal);
  const { code } = await run.exited;
  const out = run.output();
  expect(code, out).toBe(signal === 'SIGINT' ? 130 : 143);
  expect(out).toContain(`tack: ${signal}: stopping`);
  expect(out).toContain('tack: TACK_ERR_INTERRUPTED');
  const { dir, doc } = results(out);
  for (const file of REPORT_FILES) expect(existsSync(join(dir, file)), file).toBe(true);
  expect(doc.run.status).toBe('interrupted');
  expect(doc.run.interrupted).toEqual({ signal });
  expect(doc.run.exitCode).toBe(code);
  expect(doc.error?.code).toBe('TACK_ERR_INTERRUPTED');
  expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('TACK_ERR_INTERRUPTED');
  expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('INTERRUPTED');
  expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('INTERRUPTED');
  expect(doc.rules.some((r) => r.status === 'error')).toBe(true);
  expect(doc.tokens?.generated).toBeGreaterThanOrEqual(tokens);
  expect(doc.tokens?.leftAlive).toBe(0);
  expect(out).toContain(`API tokens generated ${doc.tokens?.generated}, revoked ${doc.tokens?.generated}, left alive 0`);
  expect(live()).toBe(before);
  expect(journalFiles(t)).toEqual([]);
}

describe.concurrent('stopped runs', () => {
  it(
    'SIGINT once tack has generated tokens: exit 130, every report marked interrupted, none left alive',
    async () => {
      const t = await target('hook', 'sigint', { TACK_BROWSER: NO_BROWSER });
      await stopOnce(t, 'SIGINT', () => t.server.liveApiTokens());
    },
    scaled(60_000),
  );

  it.skipIf(!hasChromium)(
    'SIGTERM in a hookless run once the token page generated a token: exit 143, none left alive',
    async () => {
      const t = await target('password-only', 'sigterm');
      await stopOnce(t, 'SIGTERM', () => t.server.liveApiTokenChains(t.server.userEmail).length);
    },
    browserLimitMs(),
  );

  it(
    'SIGKILL: the journal lists every token tack received; the next run revokes them first and says so',
    async () => {
      const { t, proxy } = await proxied('sigkill');
      try {
        const killed = tack(t);
        await until(killed, () => t.server.liveApiTokens() >= 3);
        await proxy.hold(); // nothing reaches the server any more; what it answered is delivered
        await until(killed, () => proxy.delivered.every((token) => listed(t).has(token)));
        killed.child.kill('SIGKILL');
        await killed.exited;
        const left = t.server.liveApiTokens();
        expect(left).toBeGreaterThan(0);
        expect(journalFiles(t)).toHaveLength(1);
        expect(statSync(t.journals).mode & 0o777).toBe(0o700);
        expect(statSync(join(t.journals, journalFiles(t)[0]!)).mode & 0o777).toBe(0o600);

        proxy.pass();
        let out = '';
        const opts = { only: ['SIGNIN-EXCHANGE'], runs: 2, seed: 1, strict: false, reports: t.reports, fault: [], quiet: true };
        expect(await runCommand(opts, (s) => (out += s), t.env)).toBe(0);
        expect(out).toMatch(/tack: run \S+ \(started \S+\) stopped without revoking \d+ API token\(s\) it generated: revoked \d+ now\n/);
        const earlier = results(out).doc.tokens?.earlierRuns ?? [];
        expect(earlier).toHaveLength(1);
        expect(earlier[0]!.revoked).toBe(earlier[0]!.tokens);
        expect(earlier[0]!.tokens).toBeGreaterThanOrEqual(left);
        expect(t.server.liveApiTokens()).toBe(0);
        expect(journalFiles(t)).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
    scaled(60_000),
  );

  it(
    'a second signal exits at once; what is still live stays listed for the next run',
    async () => {
      const { t, proxy } = await proxied('twice');
      try {
        const run = tack(t);
        await until(run, () => t.server.liveApiTokens() >= 1);
        await proxy.hold(); // the clean-up's revoke calls will wait: the second signal comes while they do
        run.child.kill('SIGTERM');
        await until(run, () => run.output().includes('tack: SIGTERM: stopping'));
        run.child.kill('SIGTERM');
        const { code } = await run.exited;
        expect(code, run.output()).toBe(143);
        expect(run.output()).toContain('tack: SIGTERM again: exiting now; the next run against this target revokes what this one generated');
        expect(t.server.liveApiTokens()).toBeGreaterThan(0);
        expect(journalFiles(t)).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    },
    scaled(60_000),
  );

  it(
    'tack certify client stopped while the client runs: exit 143, no process of the client left, its reports, no bundle',
    async () => {
      const base = mkdtempSync(join(dir, 'certify-'));
      const marker = `tack-stopped-client-${process.pid}-${Date.now()}`;
      const started = join(base, 'started');
      const client = join(base, 'client.mjs');
      // A client that never ends, with a child of its own: both must go with tack.
      writeFileSync(
        client,
        [
          "import { spawn } from 'node:child_process';",
          "import { writeFileSync } from 'node:fs';",
          `spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${marker}'], { stdio: 'ignore' });`,
          `writeFileSync(${JSON.stringify(started)}, 'yes');`,
          'setInterval(() => {}, 1000);',
        ].join('\n'),
      );
      const reports = join(base, 'reports');
      const run = spawnTack(['certify', 'client', 'personal-token', '--reports-dir', reports, '--', process.execPath, client, marker]);
      await until(run, () => existsSync(started));
      run.child.kill('SIGTERM');
      const { code } = await run.exited;
      const out = run.output();
      expect(code, out).toBe(143);
      expect(out).toContain('tack certify: the run was stopped by SIGTERM (a termination request): no bundle made');
      const left = execFileSync('ps', ['-eo', 'args'])
        .toString()
        .split('\n')
        .filter((line) => line.includes(marker) && !line.includes('ps -eo'));
      expect(left).toEqual([]);
      const folders = readdirSync(reports);
      expect(folders.filter((n) => n.endsWith('.tar.gz'))).toEqual([]);
      const doc = JSON.parse(readFileSync(join(reports, folders.find((n) => !n.startsWith('.'))!, 'results.json'), 'utf8')) as ResultsDocument;
      expect(doc.run.status).toBe('interrupted');
      expect(doc.run.exitCode).toBe(143);
    },
    scaled(60_000),
  );

  it(
    'tack load stopped mid-way: exit 130, the partial result marked interrupted, the chains it made revoked',
    async () => {
      const t = await target('hook', 'load');
      const out = join(t.reports, 'load.json');
      const run = spawnTack(['load', 'exchange', '--env-file', t.envFile, '--connections', '3', '--duration', '60s', '--out', out]);
      await until(run, () => /req\/s.* errors /.test(run.output())); // the first progress line: load is flowing
      run.child.kill('SIGINT');
      const { code } = await run.exited;
      expect(code, run.output()).toBe(130);
      expect(run.output()).toContain('tack: TACK_ERR_INTERRUPTED: stopped by SIGINT');
      // The 3 chains' tokens and the race probe's own chain (docs/load.md, "Race probe").
      expect(run.output()).toContain('API tokens generated 4, revoked 4, left alive 0');
      expect((JSON.parse(readFileSync(out, 'utf8')) as { interrupted?: unknown }).interrupted).toEqual({ signal: 'SIGINT' });
      expect(t.server.liveApiTokens()).toBe(0);
    },
    scaled(60_000),
  );
});
