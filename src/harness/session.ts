/**
 * One session against one target: the configuration, the HTTP client, the redactor and the
 * transcript, and, when no TACK_BASE_URL is set, the built-in reference server started on an
 * ephemeral loopback port.
 */
import { randomBytes } from 'node:crypto';
import { collectEnv, resolveTarget, validateEnv } from './config.js';
import { HttpClient } from './http.js';
import { Redactor } from './redactor.js';
import { Transcript } from './transcript.js';
import type { TargetConfig } from './types.js';

export interface Session {
  readonly target: TargetConfig;
  readonly http: HttpClient;
  readonly redactor: Redactor;
  readonly transcript: Transcript;
  readonly runId: string;
  /** Stops the built-in server (if any) and closes connections. */
  close(): Promise<void>;
}

export interface SessionOptions {
  readonly envFile?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
  /** Faults for the built-in reference server (tests and demos). */
  readonly faults?: readonly string[];
  readonly transcriptLimit?: number;
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export async function openSession(options: SessionOptions = {}): Promise<Session> {
  const raw = collectEnv({ envFile: options.envFile, env: options.env ?? process.env });
  let env = validateEnv(raw);
  let stop: (() => Promise<void>) | undefined;
  if (env.TACK_BASE_URL === undefined) {
    const { startReferenceServer } = await import('../reference/index.js');
    const server = await startReferenceServer({
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
  const transcript = new Transcript({ maxEntries: options.transcriptLimit ?? 50_000 });
  const http = new HttpClient({ timeoutMs: target.requestTimeoutMs, insecureTls: target.insecureTls, redactor, transcript });
  return {
    target,
    http,
    redactor,
    transcript,
    runId: newRunId(),
    async close() {
      await http.close();
      await stop?.();
    },
  };
}
