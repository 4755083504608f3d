/**
 * Token file safety in hookless mode: tack holds the only copy of the user's rotating API token.
 *
 * 1. SIGKILL at random moments. tack (`node bin/tack.mjs run --env-file F --only
 *    SIGNIN-ROTATION,SIGNIN-EXCHANGE`, a child process) runs against the reference server and is
 *    killed at a random moment: mostly while it exchanges, sometimes while it starts. After each
 *    kill the file must hold one whole token (mode 0600) that still exchanges; the test exchanges
 *    it and writes the rotated token back, so the chain continues into the next run.
 *
 *    A kill while the server's answer is in flight (the server rotated, tack never stored the new
 *    token) leaves the file holding the token just rotated out. The reference server keeps that one
 *    valid until its successor is first used (docs/reference-server.md), so even then the file's
 *    token exchanges: no kill may lose the chain. Against a server that refuses it at once, no
 *    client could prevent that loss; the test would count it apart (`inFlight`) and fail. Anything
 *    else is a failure too: tack must store every token it received before using it.
 *
 * 2. The lock: two tack processes on one file never both rotate it.
 *
 * Kills run in parallel lanes (each its own token file and chain) to fit the time budget: every
 * kill costs a tack start-up.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenFileLock } from '../../src/harness/lock.js';
import { readTokenFile, writeTokenFileAtomic } from '../../src/harness/token-file.js';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.js';
import { spawnTack, type TackProcess } from '../helpers/tack-process.js';
import { ExchangeRecorder, type RecordedExchange } from './exchange-recorder.js';
import { scaled } from '../helpers/time-limits.js';

// More kills for a longer soak: KILLS=200 npx vitest run test/robustness/token-file-kill.test.ts
const KILLS = Number(process.env.KILLS ?? 12);
const LANES = Number(process.env.KILL_LANES ?? 5);
/** How long after tack's first exchange request the kill may land (the exchange phase is ~100 ms). */
const EXCHANGE_PHASE_MS = 150;
/** Share of kills aimed at start-up (lock, file read, preflight) instead of the exchanges. */
const EARLY_SHARE = 0.2;

let server: ReferenceServer;
let recorder: ExchangeRecorder;
let dir: string;
let email: string;

beforeAll(async () => {
  server = await startReferenceServer();
  recorder = new ExchangeRecorder(server.port);
  await recorder.start();
  dir = mkdtempSync(join(tmpdir(), 'tack-kill-'));
  email = server.userEmail;
});

afterAll(async () => {
  await recorder?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Lane {
  readonly name: string;
  readonly folder: string;
  readonly file: string;
  readonly envFile: string;
}

function newLane(name: string): Lane {
  const base = mkdtempSync(join(dir, `${name}-`));
  const file = join(base, 'api-token');
  writeFileSync(file, `${server.issueApiToken('acme', email)}\n`, { mode: 0o600 });
  const envFile = join(base, 'tack.env');
  writeFileSync(
    envFile,
    [
      `TACK_BASE_URL=http://acme.localhost:${recorder.port}`,
      `TACK_IDENTITY_URL=http://id.localhost:${recorder.port}/realms/payroll`,
      `TACK_USER_EMAIL=${email}`,
      `TACK_API_TOKEN_FILE=${file}`,
      `TACK_REQUEST_TIMEOUT_MS=${scaled(5_000)}`,
      `TACK_RUN_DEADLINE_S=${Math.ceil(scaled(60_000) / 1000)}`,
    ].join('\n'),
  );
  return { name, folder: base, file, envFile };
}

function runTack(lane: Lane): TackProcess {
  return spawnTack(['run', '--env-file', lane.envFile, '--only', 'SIGNIN-ROTATION,SIGNIN-EXCHANGE', '--reports-dir', join(lane.folder, 'reports'), '--quiet']);
}

/** Exchanges `token` straight at the reference server (not through the recorder). */
async function exchange(token: string): Promise<{ status: number; refreshToken: string | undefined; error: string | undefined }> {
  const res = await request(`http://127.0.0.1:${server.port}/realms/payroll/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { host: `id.localhost:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'payroll-portal', refresh_token: token }).toString(),
  });
  const body = (await res.body.json().catch(() => ({}))) as { refresh_token?: string; error?: string };
  return { status: res.statusCode, refreshToken: body.refresh_token, error: body.error };
}

interface Tally {
  kills: number;
  early: number;
  completed: number;
  /** Kills that landed while the server's answer (holding the new token) was in flight. */
  inFlight: number;
  failures: string[];
}

/** After a kill: the file holds one whole 0600 token that exchanges; the rotated one is written back. */
async function verifyAndContinue(lane: Lane, tally: Tally, what: string): Promise<void> {
  let token: string;
  try {
    token = readTokenFile(lane.file);
  } catch (error) {
    tally.failures.push(`${lane.name} ${what}: the token file is not one whole token: ${(error as Error).message}`);
    return;
  }
  const mode = statSync(lane.file).mode & 0o777;
  if (mode !== 0o600) tally.failures.push(`${lane.name} ${what}: the token file has mode ${mode.toString(8)}, not 600`);
  const first = await exchange(token);
  if (first.status === 200 && first.refreshToken) {
    writeTokenFileAtomic(lane.file, first.refreshToken);
    return;
  }
  const record: RecordedExchange | undefined = recorder.sentWith(token);
  if (record?.issued && !recorder.sentWith(record.issued)) {
    // The server rotated the token and answered; tack died before that answer was stored, and
    // never used the new token. Recover the chain from the recorded answer.
    tally.inFlight++;
    const again = await exchange(record.issued);
    if (again.status !== 200 || !again.refreshToken) {
      tally.failures.push(`${lane.name} ${what}: the token recorded in flight does not exchange either (${again.status} ${again.error})`);
      return;
    }
    writeTokenFileAtomic(lane.file, again.refreshToken);
    return;
  }
  const used = record?.issued ? ' (tack had sent the new token on without storing it)' : '';
  tally.failures.push(`${lane.name} ${what}: the token file holds a token refused with ${first.status} ${first.error ?? ''}${used}`);
}

async function runLane(lane: Lane, kills: number, tally: Tally): Promise<void> {
  // Stored before used: whenever tack sends a token of this lane's chain, the file already holds it.
  const chain = new Set<string>([readTokenFile(lane.file)]);
  const storedBeforeUsed = (e: RecordedExchange) => {
    if (!chain.has(e.sent)) return;
    const inFile = readTokenFile(lane.file);
    if (inFile !== e.sent) tally.failures.push(`${lane.name}: tack sent a token to the sign-in server before storing it in the file`);
  };
  const follow = setInterval(() => {
    for (const e of recorder.exchanges) if (chain.has(e.sent) && e.issued) chain.add(e.issued);
  }, 5);
  recorder.on('exchange', storedBeforeUsed);
  try {
    await killLoop(lane, kills, tally, chain);
  } finally {
    recorder.off('exchange', storedBeforeUsed);
    clearInterval(follow);
  }
}

async function killLoop(lane: Lane, kills: number, tally: Tally, chain: Set<string>): Promise<void> {
  let done = 0;
  for (let attempt = 0; done < kills && attempt < kills * 3; attempt++) {
    if (tally.failures.length > 0) return;
    const start = readTokenFile(lane.file);
    const { child, output, exited } = runTack(lane);
    const early = Math.random() < EARLY_SHARE;
    let timer: NodeJS.Timeout | undefined;
    let delay = 0;
    const kill = () => child.kill('SIGKILL');
    const onExchange = (e: RecordedExchange) => {
      if (e.sent !== start || timer) return;
      delay = Math.random() * EXCHANGE_PHASE_MS;
      timer = setTimeout(kill, delay);
    };
    if (early) {
      delay = Math.random() * 1_500;
      timer = setTimeout(kill, delay);
    } else recorder.on('exchange', onExchange);
    const { code, signal } = await exited;
    recorder.off('exchange', onExchange);
    clearTimeout(timer);
    const killed = `killed ${early ? 'at start-up, ' : ''}${Math.round(delay)} ms ${early ? 'after spawn' : 'after its first exchange'}`;
    const what = `run ${attempt + 1} (${signal === 'SIGKILL' ? killed : `finished with exit ${code}`})`;
    if (signal === 'SIGKILL') {
      done++;
      tally.kills++;
      if (early) tally.early++;
    } else {
      tally.completed++;
      if (code !== 0) {
        tally.failures.push(`${lane.name} ${what}:\n${output()}`);
        return;
      }
    }
    await verifyAndContinue(lane, tally, what);
    chain.add(readTokenFile(lane.file));
  }
}

describe('the token file survives SIGKILL at random moments', () => {
  it(
    `${KILLS} kills in a row: after each, the file holds a token that still exchanges`,
    async () => {
      const tally: Tally = { kills: 0, early: 0, completed: 0, inFlight: 0, failures: [] };
      const lanes = Array.from({ length: LANES }, (_, i) => newLane(`lane${i + 1}`));
      const perLane = lanes.map((_, i) => Math.floor(KILLS / LANES) + (i < KILLS % LANES ? 1 : 0));
      await Promise.all(lanes.map((lane, i) => runLane(lane, perLane[i]!, tally)));
      process.stdout.write(
        `token-file kill test: ${tally.kills} kills (${tally.early} at start-up), ${tally.completed} runs finished before their kill, ` +
          `${tally.inFlight} kills with the server's answer in flight (no client can store it), ${tally.failures.length} failures\n` +
          tally.failures.map((f) => `  ${f}\n`).join(''),
      );
      expect(tally.failures).toEqual([]);
      expect(tally.kills).toBe(KILLS);
      expect(tally.inFlight, 'kills after which only the in-flight answer held a working token').toBe(0);
      for (const lane of lanes) {
        // A kill may leave one temp file (removed by the next run that takes the lock), never more.
        const temps = readdirSync(lane.folder).filter((n) => n.endsWith('.tmp'));
        expect(temps.length, `${lane.name}: ${temps.join(', ')}`).toBeLessThanOrEqual(1);
        // The last killed run's lock is recognised as stale at once (its process is gone).
        const started = performance.now();
        const lock = await TokenFileLock.acquire(lane.file, { waitMs: 20_000 });
        expect(performance.now() - started).toBeLessThan(scaled(10_000)); // far less than the 20 s a live holder would cost
        expect(readdirSync(lane.folder).filter((n) => n.endsWith('.tmp'))).toEqual([]);
        await lock.release();
      }
    },
    scaled(240_000),
  );
});

describe('stopping tack the ordinary way', () => {
  it(
    'SIGTERM while an exchange is in flight: tack stores the answer first, then exits 143',
    async () => {
      const slow = new ExchangeRecorder(server.port, 600);
      await slow.start();
      try {
        const lane = newLane('sigterm');
        const env = readFileSync(lane.envFile, 'utf8').replaceAll(`:${recorder.port}`, `:${slow.port}`);
        writeFileSync(lane.envFile, env);
        const first = readTokenFile(lane.file);
        const run = runTack(lane);
        const sent = await new Promise<RecordedExchange>((resolve) => slow.on('exchange', (e: RecordedExchange) => e.sent === first && resolve(e)));
        run.child.kill('SIGTERM'); // the answer is held back 600 ms: the exchange is in flight
        const { code, signal } = await run.exited;
        expect(signal, run.output()).toBeNull();
        expect(code, run.output()).toBe(143);
        expect(sent.issued).toBeDefined();
        expect(readTokenFile(lane.file)).toBe(sent.issued);
        expect((await exchange(sent.issued!)).status).toBe(200);
        expect(existsSync(`${lane.file}.lock`)).toBe(false);
      } finally {
        await slow.close();
      }
    },
    scaled(60_000),
  );
});

describe('the token file lock', () => {
  /** The tokens of the chain that began with `first`, in order, as the recorder saw them sent. */
  function chainFrom(first: string): RecordedExchange[] {
    const out: RecordedExchange[] = [];
    let token: string | undefined = first;
    while (token) {
      const sent = recorder.exchanges.filter((e) => e.sent === token);
      if (sent.length === 0) break;
      expect(sent, 'a token of the chain was sent twice: two processes rotated at once').toHaveLength(1);
      out.push(sent[0]!);
      token = sent[0]!.issued;
    }
    return out;
  }

  it(
    'two tack processes started at once on one file: never both rotating it',
    async () => {
      const lane = newLane('pair');
      const first = readTokenFile(lane.file);
      const a = runTack(lane);
      const b = runTack(lane);
      const results = await Promise.all([a.exited, b.exited]);
      const outputs = [a.output(), b.output()];
      for (const [i, r] of results.entries()) {
        expect([0, 2], outputs[i]).toContain(r.code);
        if (r.code === 2) expect(outputs[i]).toContain('TACK_ERR_TOKEN_FILE_LOCKED');
      }
      expect(
        results.some((r) => r.code === 0),
        outputs.join('\n---\n'),
      ).toBe(true);
      const chain = chainFrom(first);
      expect(chain.length).toBeGreaterThan(0);
      for (const e of chain) expect(e.status).toBe(200);
      const last = readTokenFile(lane.file);
      expect(last).toBe(chain.at(-1)!.issued);
      expect((await exchange(last)).status).toBe(200);
    },
    scaled(60_000),
  );

  it(
    'a second process waits briefly, then fails with TACK_ERR_TOKEN_FILE_LOCKED naming the holder; the file is untouched',
    async () => {
      const lane = newLane('held');
      const before = readTokenFile(lane.file);
      const held = await TokenFileLock.acquire(lane.file);
      try {
        const started = performance.now();
        const run = runTack(lane);
        const { code } = await run.exited;
        const out = run.output();
        expect(code, out).toBe(2);
        expect(out).toContain('TACK_ERR_TOKEN_FILE_LOCKED');
        expect(out).toContain(`in use by another tack process (pid ${process.pid}`);
        expect(performance.now() - started).toBeLessThan(scaled(30_000));
        expect(readTokenFile(lane.file)).toBe(before);
        expect(recorder.sentWith(before)).toBeUndefined();
      } finally {
        await held.release();
      }
      expect((await exchange(before)).status).toBe(200);
    },
    scaled(60_000),
  );
});
