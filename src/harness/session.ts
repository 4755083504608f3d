/**
 * One session against one target: the configuration, the HTTP client, the redactor, the transcript
 * and the ledger of the API tokens tack generates (revoked, at the latest, when the session closes).
 * When no TACK_BASE_URL is set, the caller's `builtIn` starter runs the built-in
 * reference server on an ephemeral loopback port: the command line hands it in (src/cli/built-in.ts),
 * so nothing on the checking side imports the reference server.
 */
import { randomBytes } from 'node:crypto';
import { defaultJournalDir, RunJournal } from './cleanup/journal.js';
import { TokenLedger } from './cleanup/ledger.js';
import { IdentityClient } from './clients/identity.js';
import { collectEnv, resolveTarget, validateEnv } from './config.js';
import { TackError } from './errors.js';
import { HttpClient } from './http.js';
import { Redactor } from './redactor.js';
import { Transcript } from './transcript.js';
import type { TargetConfig } from './target-config.js';

export interface Session {
  readonly target: TargetConfig;
  readonly http: HttpClient;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  readonly runId: string;
  /** The API tokens tack generated in this session, listed in the run journal until revoked. */
  readonly ledger: TokenLedger;
  /** Where run journals are kept; undefined for the built-in server (its tokens end with tack's process). */
  readonly journalDir: string | undefined;
  /** Revokes what is still live, stops the built-in server (if any) and closes connections. */
  close(): Promise<void>;
}

/** A running built-in target: its TACK_* variables (secrets included) and how to stop it. */
interface BuiltInTarget {
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the built-in reference server; the settings are the run's partner header names and client id. */
export type BuiltInStarter = (settings: { faults: readonly string[]; partnerHeaders?: readonly [string, string]; clientId?: string }) => Promise<BuiltInTarget>;

interface SessionOptions {
  readonly envFile?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
  /** Starts the built-in server when no TACK_BASE_URL is set; without it, a target is required. */
  readonly builtIn?: BuiltInStarter;
  /** Faults for the built-in reference server (tests and demos). */
  readonly faults?: readonly string[];
  readonly transcriptLimit?: number;
  /** The run id to use (the command chose one already, e.g. to name its reports); new when absent. */
  readonly runId?: string;
  /** Where run journals are kept (tests); default TACK_JOURNAL_DIR, else `<os temp>/tack-journal-<uid>`. */
  readonly journalDir?: string;
}

/**
 * A redactor that knows the secrets among raw TACK_* variables, before they are validated: what
 * an error about a configuration that never became a session may print goes through it.
 */
function redactorForEnv(raw: Readonly<Record<string, string>>): Redactor {
  const redactor = new Redactor();
  for (const [name, value] of Object.entries(raw)) {
    if (/_(SECRET|TOKEN|PASSWORD)$/.test(name)) redactor.register(name.endsWith('_TOKEN') ? 'hook-token' : 'partner-secret', value);
  }
  return redactor;
}

/** `redactorForEnv` of the variables as far as they can be read (the env file may be what failed). */
export function redactorForConfig(envFile: string | undefined, env: NodeJS.ProcessEnv): Redactor {
  let raw: Record<string, string>;
  try {
    raw = collectEnv({ envFile, env });
  } catch {
    raw = collectEnv({ env });
  }
  return redactorForEnv(raw);
}

export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** A ledger whose revoke calls go out even once the run is stopped (they are its clean-up). */
export function newLedger(http: HttpClient, redactor: Redactor, target: TargetConfig, journal?: RunJournal): TokenLedger {
  const revoker = new IdentityClient(http, redactor, target.identityUrl, target.clientId);
  return new TokenLedger(journal, (token) => revoker.revoke(token, { cleanup: true }));
}

export async function openSession(options: SessionOptions = {}): Promise<Session> {
  const raw = collectEnv({ envFile: options.envFile, env: options.env ?? process.env });
  let env = validateEnv(raw);
  let stop: (() => Promise<void>) | undefined;
  if (env.TACK_BASE_URL === undefined) {
    if (!options.builtIn) throw new TackError('TACK_ERR_CONFIG', 'TACK_BASE_URL is not set: point tack at a target (see docs/configuration.md)');
    const server = await options.builtIn({
      faults: options.faults ?? [],
      ...(raw.TACK_PARTNER_HEADERS ? { partnerHeaders: env.TACK_PARTNER_HEADERS } : {}),
      ...(raw.TACK_CLIENT_ID ? { clientId: env.TACK_CLIENT_ID } : {}),
    });
    stop = () => server.close();
    try {
      env = validateEnv({ ...raw, ...server.env });
    } catch (error) {
      await server.close(); // a started server would keep the process alive after the error
      throw error;
    }
  }
  const target = resolveTarget(env, stop !== undefined);
  const redactor = new Redactor();
  redactor.addSecretHeader(target.partnerHeaders[1]);
  redactor.register('partner-secret', target.partner?.secret);
  redactor.register('partner-secret', target.otherPartner?.secret);
  redactor.register('hook-token', target.hook?.token);
  redactor.register('password', target.userPassword);
  const transcript = new Transcript({ maxEntries: options.transcriptLimit ?? 50_000 });
  const http = new HttpClient({ timeoutMs: target.requestTimeoutMs, insecureTls: target.insecureTls, redactor, transcript });
  const runId = options.runId ?? newRunId();
  const journalDir = target.builtIn ? undefined : (options.journalDir ?? target.journalDir ?? defaultJournalDir());
  const ledger = newLedger(http, redactor, target, journalDir === undefined ? undefined : new RunJournal(journalDir, target, runId));
  return {
    target,
    http,
    redactor,
    transcript,
    runId,
    ledger,
    journalDir,
    async close() {
      try {
        transcript.setTest('cleanup');
        await ledger.revokeAll(); // nothing left when the run's own clean-up did it
        ledger.finish();
      } finally {
        transcript.setTest(undefined);
        await http.close();
        await stop?.();
      }
    },
  };
}
