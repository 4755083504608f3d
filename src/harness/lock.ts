/**
 * The lock on a hookless API-token file: two tack processes must never rotate the same token at
 * once (the second would exchange a token the first has just rotated out, and a Keycloak-style
 * server may then revoke the whole chain).
 *
 * - The lock is proper-lockfile's: a `<file>.lock` folder made with mkdir (atomic, works on network
 *   file systems), its mtime refreshed while held; one older than `staleMs` is abandoned.
 * - Next to it, `<file>.lock.owner` names the holder (pid, host). A holder on this machine whose
 *   process is gone (killed with SIGKILL, so nothing removed the lock) is recognised at once
 *   instead of after `staleMs`.
 * - A second process waits up to `waitMs`, then fails with TACK_ERR_TOKEN_FILE_LOCKED naming the
 *   holder.
 * - While held: SIGINT / SIGTERM / SIGHUP during an exchange are deferred until its answer is on
 *   disk (bounded), so stopping tack the ordinary way never loses a rotated token.
 */
import { mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { lock as properLock } from 'proper-lockfile';
import { TackError } from './errors.js';
import { removeStaleTemps, tokenFileTarget } from './token-file.js';

export interface LockOptions {
  /** How long a second process waits for the holder before failing (default 5 s). */
  readonly waitMs?: number;
  /** A lock not refreshed for this long is abandoned (default 10 s; proper-lockfile's minimum is 2 s). */
  readonly staleMs?: number;
  /** Longest a stop signal is deferred while an exchange is in flight (default 15 s). */
  readonly signalGraceMs?: number;
}

interface Owner {
  readonly pid: number;
  readonly host: string;
  /** Inode of the lock folder this record belongs to. */
  readonly ino: number;
  readonly since: string;
}

const POLL_MS = 100;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

export class TokenFileLock {
  private inFlight = 0;
  private compromised: Error | undefined;
  private pendingSignal: (typeof SIGNALS)[number] | undefined;
  private released = false;
  private readonly onSignal = (signal: (typeof SIGNALS)[number]) => this.handleSignal(signal);

  private constructor(
    readonly path: string,
    private readonly lockPath: string,
    private readonly releaseLock: () => Promise<void>,
    private readonly signalGraceMs: number,
  ) {}

  /** Takes the lock on `path`'s token file, waiting up to `waitMs` for another holder. */
  static async acquire(path: string, options: LockOptions = {}): Promise<TokenFileLock> {
    const target = tokenFileTarget(path);
    const lockPath = `${target}.lock`;
    const waitMs = options.waitMs ?? 5_000;
    const staleMs = Math.max(2_000, options.staleMs ?? 10_000);
    const started = Date.now();
    let holder: TokenFileLock | undefined;
    const onCompromised = (error: Error) => {
      if (holder) holder.compromised = error;
    };
    for (;;) {
      try {
        const release = await properLock(target, { realpath: false, lockfilePath: lockPath, stale: staleMs, update: Math.floor(staleMs / 4), retries: 0, onCompromised });
        holder = new TokenFileLock(path, lockPath, release, options.signalGraceMs ?? 15_000);
        writeOwner(lockPath);
        removeStaleTemps(path);
        for (const s of SIGNALS) process.on(s, holder.onSignal);
        return holder;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ELOCKED') {
          throw new TackError('TACK_ERR_TOKEN_FILE', `the lock ${lockPath} on TACK_API_TOKEN_FILE could not be taken (${code ?? String(error)}); the folder must be writable`);
        }
        if (breakIfOwnerGone(lockPath)) continue;
        if (Date.now() - started >= waitMs) {
          throw new TackError('TACK_ERR_TOKEN_FILE_LOCKED', `TACK_API_TOKEN_FILE ${path} is in use by ${describeOwner(lockPath)} (waited ${Math.round(waitMs / 100) / 10} s): two runs must not rotate the same API token; wait for the other run to finish, or give each run its own user and token file`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  }

  /**
   * Call before a rotation; call the returned function when its answer is on disk. Throws,
   * before anything is sent, when the lock was lost meanwhile.
   */
  begin(): () => void {
    if (this.released) throw new TackError('TACK_ERR_TOKEN_FILE_LOCKED', `the lock on TACK_API_TOKEN_FILE ${this.path} was already released; no rotation without it`);
    if (this.compromised) {
      throw new TackError('TACK_ERR_TOKEN_FILE_LOCKED', `the lock on TACK_API_TOKEN_FILE ${this.path} was lost (${this.compromised.message}); stopping before rotating the token`);
    }
    this.inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (this.inFlight === 0 && this.pendingSignal) this.exitFor(this.pendingSignal);
    };
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    for (const s of SIGNALS) process.off(s, this.onSignal);
    try {
      unlinkSync(`${this.lockPath}.owner`);
    } catch {
      /* already gone */
    }
    await this.releaseLock().catch(() => undefined);
  }

  private handleSignal(signal: (typeof SIGNALS)[number]): void {
    if (this.inFlight === 0) {
      this.exitFor(signal);
      return;
    }
    // An exchange is in flight: its answer holds the only copy of the new token. Let it land.
    this.pendingSignal = signal;
    setTimeout(() => this.exitFor(signal), this.signalGraceMs).unref();
  }

  private exitFor(signal: (typeof SIGNALS)[number]): never {
    this.releaseSync();
    process.exit(128 + SIGNAL_NUMBERS[signal]);
  }

  private releaseSync(): void {
    this.released = true;
    try {
      unlinkSync(`${this.lockPath}.owner`);
    } catch {
      /* gone */
    }
    try {
      rmdirSync(this.lockPath);
    } catch {
      /* gone */
    }
  }
}

/** Who holds the lock of `path`'s token file, for `tack doctor`; undefined when nobody does. */
export function lockHolder(path: string): string | undefined {
  const lockPath = `${tokenFileTarget(path)}.lock`;
  try {
    statSync(lockPath);
  } catch {
    return undefined;
  }
  const owner = readOwner(lockPath);
  if (owner && owner.host === hostname() && !isAlive(owner.pid)) return `nobody (a stale lock of stopped process ${owner.pid}; the next run removes it)`;
  return describeOwner(lockPath);
}

function writeOwner(lockPath: string): void {
  const owner: Owner = { pid: process.pid, host: hostname(), ino: statSync(lockPath).ino, since: new Date().toISOString() };
  try {
    writeFileSync(`${lockPath}.owner`, JSON.stringify(owner), { mode: 0o600 });
  } catch {
    /* without it, a stale lock is still recognised by its age */
  }
}

function readOwner(lockPath: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(`${lockPath}.owner`, 'utf8')) as Partial<Owner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string' || typeof owner.ino !== 'number') return undefined;
    return { pid: owner.pid, host: owner.host, ino: owner.ino, since: String(owner.since ?? '') };
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock when its recorded holder is a process of this machine that no longer exists.
 * The record must belong to the current lock folder (same inode), so a new holder that has not yet
 * written its record is never mistaken for the dead one; and breaking is itself serialised by a
 * `<lock>.break` folder, so two waiting processes cannot both break it (one could remove the lock
 * the other had just taken). A `.break` folder left by a killed process is ignored after 5 s.
 */
function breakIfOwnerGone(lockPath: string): boolean {
  const owner = readOwner(lockPath);
  if (!owner || owner.host !== hostname() || owner.pid === process.pid || isAlive(owner.pid)) return false;
  const guard = `${lockPath}.break`;
  try {
    mkdirSync(guard);
  } catch {
    try {
      if (Date.now() - statSync(guard).mtimeMs > 5_000) rmdirSync(guard);
    } catch {
      /* gone meanwhile */
    }
    return false;
  }
  try {
    const again = readOwner(lockPath);
    if (!again || again.pid !== owner.pid || again.ino !== owner.ino || statSync(lockPath).ino !== owner.ino) return false;
    unlinkSync(`${lockPath}.owner`);
    rmdirSync(lockPath);
    return true;
  } catch {
    return false;
  } finally {
    try {
      rmdirSync(guard);
    } catch {
      /* gone */
    }
  }
}

function describeOwner(lockPath: string): string {
  const owner = readOwner(lockPath);
  if (!owner) return 'another tack process';
  return `another tack process (pid ${owner.pid} on ${owner.host}, since ${owner.since})`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
