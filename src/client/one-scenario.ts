/**
 * Plays one scenario of `tack client`: a fresh reference server in its scripted, recording mode
 * (one loopback port per host role, rotated-out tokens refused at once, the scenario's scripted
 * answers), the scenario's setup (a token file, a revoked token, more businesses), then the command
 * once per run with the contract's PAYROLL_* variables. Returns what was seen, raw; the caller
 * redacts and judges.
 */
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClientRecorder, type RecordedExchange } from '../reference/client-recorder.js';
import { type ReferenceServer, startReferenceServer } from '../reference/index.js';
import type { ScriptStep } from '../reference/scripted-answers.js';
import type { ObservedRun, Profile, ScenarioSettings, TokenFileState } from '../../suites/client/evidence.js';
import type { ScenarioPlan, ScenarioSetup } from '../../suites/client/scenarios.js';
import { clientEnvironment } from './environment.js';
import { type ProcessResult, startProcess } from './process.js';

/** The client under test, as its user described it: what runs, where, and with what. */
export interface ClientProgram {
  readonly profile: Profile;
  readonly command: readonly string[];
  readonly cwd: string;
  readonly parentEnv: NodeJS.ProcessEnv;
  readonly passEnv: readonly string[];
  readonly maxRequests: number;
  readonly partnerHeaders: readonly [string, string];
}

interface PlayOptions extends ClientProgram {
  readonly runTimeoutMs: number;
  /** ms since the epoch: no run starts after it, and none outlasts it. */
  readonly deadlineAt: number;
  /** Where the scenario's folder (its token file) is made. */
  readonly workDir: string;
  /** tack stopped: the command is stopped with its group, and the scenario is not played to its end. */
  readonly signal?: AbortSignal | undefined;
}

interface PlayedRun extends ProcessResult {
  readonly index: number;
  readonly tokenFile: ObservedRun['tokenFile'];
}

export interface RawScenario {
  readonly settings: ScenarioSettings;
  readonly runs: readonly PlayedRun[];
  readonly recorded: readonly RecordedExchange[];
  /** Origin (scheme, host, port) of each listener role, to write full URLs into the transcript. */
  readonly origins: Readonly<Record<string, string>>;
  /** The role label of the tenant host handed to the client (`tenant:acme`). */
  readonly tenantRole: string;
  /**
   * The role label each host name stands for on the Host-routed listener (label `host`): a client
   * that reaches that listener (its address is in the server's redirects) with `Host: id.localhost`
   * talks to the sign-in server as much as one at the sign-in server's own port.
   */
  readonly hostRoutes: Readonly<Record<string, string>>;
  /** The PAYROLL_* variables the client got (secrets included). */
  readonly payroll: Readonly<Record<string, string>>;
}

const SEARCH_ROUTE = 'business search';

/** tack was stopped while the scenario played: what it saw is not judged. */
class ScenarioStopped extends Error {
  constructor(readonly signal: string) {
    super(`tack was stopped by ${signal} while the scenario played`);
    this.name = 'ScenarioStopped';
  }
}

export async function playScenario(plan: ScenarioPlan, options: PlayOptions): Promise<RawScenario> {
  let running: { cutOff(): void } | undefined;
  const recorder = new ClientRecorder({ maxPerRun: options.maxRequests, onOverflow: () => running?.cutOff() });
  const server = await startReferenceServer({
    rolePorts: true,
    strictRotation: true,
    recorder,
    script: scriptOf(plan.setup, 1),
    laterScript: scriptOf(plan.setup),
    partnerHeaders: options.partnerHeaders,
  });
  const dir = mkdtempSync(join(options.workDir, `${plan.id}-`));
  try {
    const { payroll, settings, tenantRole } = setUp(server, plan.setup, options, dir);
    const env = clientEnvironment(options.parentEnv, payroll, options.passEnv);
    const runs: PlayedRun[] = [];
    for (let index = 1; index <= plan.runs; index++) {
      const left = options.deadlineAt - Date.now();
      if (left <= 0) {
        runs.push(notStarted(index, 'the whole run reached its deadline (--deadline) first'));
        continue;
      }
      recorder.run = index;
      server.setScript(scriptOf(plan.setup, index));
      const timeoutMs = Math.min(options.runTimeoutMs, left);
      const file = payroll.PAYROLL_API_TOKEN_FILE === undefined ? undefined : new HeldFile(payroll.PAYROLL_API_TOKEN_FILE);
      const child = startProcess(options.command, { env, cwd: options.cwd, timeoutMs, signal: options.signal });
      running = child;
      const ended = await child.done;
      running = undefined;
      runs.push({ index, ...ended, tokenFile: file?.release() });
      if (options.signal?.aborted) throw new ScenarioStopped(String(options.signal.reason));
    }
    return { settings, runs, recorded: recorder.exchanges, origins: originsOf(server), tenantRole, hostRoutes: hostRoutesOf(server), payroll };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The scripted answers of run `run` (each counted from the start of the run); of every run when absent. */
function scriptOf(setup: ScenarioSetup, run?: number): ScriptStep[] {
  const search = setup.search;
  if (search === undefined || (run !== undefined && search.runs !== undefined && !search.runs.includes(run))) return [];
  const reply = search.reply === 'unauthorized' ? 'access-token-refused' : 'forbidden';
  // As a real server: a call without a valid access token gets the server's own 401 first.
  return [{ route: SEARCH_ROUTE, reply, withValidAccessToken: true, ...(search.times !== undefined ? { times: search.times } : {}) }];
}

/**
 * The token file across one run: its state before, held open meanwhile (so its inode cannot be
 * reused by a file the client writes: a replaced file always shows a new inode), and after.
 */
class HeldFile {
  readonly #fd: number | undefined;
  readonly #before: TokenFileState | null;

  constructor(readonly path: string) {
    let fd: number | undefined;
    let before: TokenFileState | null = null;
    try {
      fd = openSync(path, 'r');
      const stat = fstatSync(fd);
      before = { ino: stat.ino, mode: stat.mode & 0o777, content: readFileSync(fd, 'utf8') };
    } catch {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    }
    this.#fd = fd;
    this.#before = before;
  }

  release(): { before: TokenFileState | null; after: TokenFileState | null } {
    let after: TokenFileState | null = null;
    try {
      const stat = statSync(this.path);
      after = { ino: stat.ino, mode: stat.mode & 0o777, content: readFileSync(this.path, 'utf8') };
    } catch {
      /* not there any more */
    }
    if (this.#fd !== undefined) closeSync(this.#fd);
    return { before: this.#before, after };
  }
}

function setUp(server: ReferenceServer, setup: ScenarioSetup, options: PlayOptions, dir: string) {
  const roles = server.roleUrls!;
  const tenant = Object.keys(roles.tenants)[0]!;
  const user = server.userEmail;
  if (setup.readableBusinesses !== undefined) server.addReadableBusinesses(tenant, user, setup.readableBusinesses);
  const payroll: Record<string, string> = { PAYROLL_BASE_URL: roles.tenants[tenant]!, PAYROLL_IDENTITY_URL: roles.identity };
  let apiToken: string | undefined;
  let partner: ScenarioSettings['partner'];
  if (options.profile === 'personal-token') {
    apiToken = server.issueApiToken(tenant, user);
    const file = join(dir, 'api-token');
    writeFileSync(file, apiToken, { mode: 0o600 });
    if (setup.revokeApiToken === true) server.revokeApiToken(apiToken);
    payroll.PAYROLL_API_TOKEN_FILE = file;
  } else {
    partner = { clientId: server.env.TACK_PARTNER_CLIENT_ID!, secret: server.env.TACK_PARTNER_SECRET!, headers: options.partnerHeaders };
    payroll.PAYROLL_PARTNER_CLIENT_ID = partner.clientId;
    payroll.PAYROLL_PARTNER_SECRET = partner.secret;
    payroll.PAYROLL_PARTNER_HEADERS = options.partnerHeaders.join(',');
    payroll.PAYROLL_USER_EMAIL = user;
  }
  const settings: ScenarioSettings = {
    profile: options.profile,
    clientId: server.env.TACK_CLIENT_ID ?? 'payroll-portal',
    identityPath: new URL(roles.identity).pathname,
    apiToken,
    partner,
    userEmail: options.profile === 'partner-key' ? user : undefined,
  };
  return { payroll, settings, tenantRole: `tenant:${tenant}` };
}

function originsOf(server: ReferenceServer): Record<string, string> {
  const roles = server.roleUrls!;
  const out: Record<string, string> = { host: `http://127.0.0.1:${server.port}`, identity: new URL(roles.identity).origin };
  for (const [name, url] of Object.entries(roles.tenants)) out[`tenant:${name}`] = url;
  return out;
}

function hostRoutesOf(server: ReferenceServer): Record<string, string> {
  const out: Record<string, string> = { [new URL(server.urls.identity).hostname]: 'identity' };
  for (const [name, url] of Object.entries(server.urls.tenants)) out[new URL(url).hostname] = `tenant:${name}`;
  return out;
}

function notStarted(index: number, why: string): PlayedRun {
  const now = Date.now();
  const nothing = { stdout: '', stderr: '', outputTruncated: false, startedAt: now, durationMs: 0 };
  return { index, end: 'not-started', exitCode: null, signal: null, startProblem: why, ...nothing, tokenFile: undefined };
}
