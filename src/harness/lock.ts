/**
 * The lock on a hookless API-token file: two tack processes must never rotate the same token at
 * once (the second would exchange a token the first has just rotated out, and a Keycloak-style
 * server may then revoke the whole chain).
 *
 * - The lock is proper-lockfile's: a `<file>.lock` folder made with mkdir (atomic, works on network
 *   file systems), its mtime refreshed while held; one not refreshed for `staleMs` is abandoned.
 * - Who holds it is written down, so that a holder killed with SIGKILL (nothing removed its lock)
 *   is recognised at once instead of after `staleMs`, without ever taking a live holder for dead:
 *   each process writes `<file>.lock.<pid>.candidate` *before* it tries, and renames it to
 *   `<file>.lock.owner` once it holds the lock. The holder is therefore always the owner record or
 *   one of the candidates; when none of them is a live process of this machine, the lock is dead.
 * - A second process waits up to `waitMs`, then fails with TACK_ERR_TOKEN_FILE_LOCKED naming the
 *   holder.
 * - While held: SIGINT / SIGTERM / SIGHUP during an exchange are deferred until its answer is on
 *   disk (bounded), so stopping tack the ordinary way never loses a rotated token. Where the command
 *   handles SIGINT and SIGTERM itself (src/harness/interrupt.ts: it stops the run, revokes and
 *   reports), the lock leaves those two to it and only holds a second signal's exit until the
 *   exchange in flight has landed.
 *
 * Not covered: three or more processes at once, one of them killed while holding: the live waiters
 * see each other as possible holders and wait for the mtime to go stale (then the next run works).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { lock as properLock } from 'proper-lockfile';
import { TackError } from './errors.js';
import { holdExit, stopHandled } from './interrupt.js';
import { removeStaleTemps, tokenFileTarget } from './token-file.js';

interface LockOptions {
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
  readonly since: string;
}

const POLL_MS = 100;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof SIGNALS)[number];
const SIGNAL_NUMBERS: Record<StopSignal, number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

export class TokenFileLock {
  private inFlight = 0;
  private compromised: Error | undefined;
  private pendingSignal: StopSignal | undefined;
  private released = false;
  private readonly onSignal = (signal: StopSignal) => this.handleSignal(signal);
  private readonly onExit = () => this.removeOwner();
  /** The signals this lock handles itself (SIGHUP only, when the command handles SIGINT and SIGTERM). */
  private signals: readonly StopSignal[] = SIGNALS;
  private unhold: (() => void) | undefined;
  private idleWaiters: (() => void)[] = [];

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
    const candidate = candidatePath(lockPath, process.pid);
    try {
      writeFileSync(candidate, JSON.stringify(me()), { mode: 0o600 });
    } catch (error) {
      throw new TackError(
        'TACK_ERR_TOKEN_FILE',
        `the lock on TACK_API_TOKEN_FILE could not be taken (${(error as NodeJS.ErrnoException).code ?? String(error)}): ` +
          `the folder ${dirname(target)} must be writable`,
      );
    }
    try {
      for (;;) {
        try {
          const release = await properLock(target, {
            realpath: false,
            lockfilePath: lockPath,
            stale: staleMs,
            update: Math.floor(staleMs / 4),
            retries: 0,
            onCompromised,
          });
          renameSync(candidate, ownerPath(lockPath)); // the candidate record becomes the owner record
          holder = new TokenFileLock(path, lockPath, release, options.signalGraceMs ?? 15_000);
          removeStaleTemps(path);
          sweepDeadCandidates(lockPath);
          if (stopHandled()) {
            holder.signals = ['SIGHUP'];
            holder.unhold = holdExit(() => holder!.idle());
          }
          for (const s of holder.signals) process.on(s, holder.onSignal);
          process.on('exit', holder.onExit);
          return holder;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ELOCKED') {
            throw new TackError(
              'TACK_ERR_TOKEN_FILE',
              `the lock ${lockPath} on TACK_API_TOKEN_FILE could not be taken (${code ?? String(error)}); the folder must be writable`,
            );
          }
          if (breakIfHolderGone(lockPath)) continue;
          if (Date.now() - started >= waitMs) {
            throw new TackError(
              'TACK_ERR_TOKEN_FILE_LOCKED',
              `TACK_API_TOKEN_FILE ${path} is in use by ${describeHolder(lockPath)} (waited ${Math.round(waitMs / 100) / 10} s): ` +
                'two runs must not rotate the same API token; wait for the other run to finish, or give each run its own user and token file',
            );
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }
    } finally {
      if (!holder) unlinkQuietly(candidate);
    }
  }

  /**
   * Call before a rotation; call the returned function when its answer is on disk. Throws,
   * before anything is sent, when the lock was lost meanwhile.
   */
  begin(): () => void {
    if (this.released)
      throw new TackError('TACK_ERR_TOKEN_FILE_LOCKED', `the lock on TACK_API_TOKEN_FILE ${this.path} was already released; no rotation without it`);
    if (this.compromised) {
      throw new TackError(
        'TACK_ERR_TOKEN_FILE_LOCKED',
        `the lock on TACK_API_TOKEN_FILE ${this.path} was lost (${this.compromised.message}); stopping before rotating the token`,
      );
    }
    this.inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      if (this.inFlight === 0 && this.pendingSignal) this.exitFor(this.pendingSignal);
    };
  }

  /** Resolves once no exchange is in flight (its answer is on disk). */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    for (const s of this.signals) process.off(s, this.onSignal);
    this.unhold?.();
    process.off('exit', this.onExit);
    this.removeOwner(); // first: a lock without an owner record is still held (by nobody alive, after this)
    await this.releaseLock().catch(() => undefined);
  }

  private handleSignal(signal: StopSignal): void {
    if (this.inFlight === 0) this.exitFor(signal);
    // An exchange is in flight: its answer holds the only copy of the new token. Let it land.
    this.pendingSignal = signal;
    setTimeout(() => this.exitFor(signal), this.signalGraceMs).unref();
  }

  private exitFor(signal: StopSignal): never {
    this.released = true;
    this.removeOwner();
    try {
      rmdirSync(this.lockPath);
    } catch {
      /* gone */
    }
    process.exit(128 + SIGNAL_NUMBERS[signal]);
  }

  private removeOwner(): void {
    const owner = readRecord(ownerPath(this.lockPath));
    if (owner?.pid === process.pid) unlinkQuietly(ownerPath(this.lockPath));
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
  if (holderIsGone(lockPath, true)) return 'nobody: a lock left by a stopped process (the next run removes it)';
  return describeHolder(lockPath, true);
}

function me(): Owner {
  return { pid: process.pid, host: hostname(), since: new Date().toISOString() };
}

function ownerPath(lockPath: string): string {
  return `${lockPath}.owner`;
}

/** `<file>.lock.<pid>.<host>.candidate`: the name alone says who, even if the content was never written. */
function candidatePath(lockPath: string, pid: number): string {
  return `${lockPath}.${pid}.${hostname().replace(/[^A-Za-z0-9.-]/g, '_')}.candidate`;
}

function candidates(lockPath: string): { file: string; record: Owner }[] {
  const prefix = `${basename(lockPath)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(lockPath));
  } catch {
    return [];
  }
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
  const out: { file: string; record: Owner }[] = [];
  for (const name of names) {
    const m = /^(\d+)\.(.+)\.candidate$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '');
    if (!m) continue;
    // Same host (as the name spells it): compare with this machine's real name.
    out.push({ file: join(dirname(lockPath), name), record: { pid: Number(m[1]), host: m[2] === host ? hostname() : m[2]!, since: '' } });
  }
  return out;
}

/**
 * True when neither the owner record nor any candidate is a live process (of this machine: another
 * machine's processes cannot be checked, so they count as alive). This process's own candidate
 * record counts only when `selfCounts` (asking about the lock, not waiting for it).
 */
function holderIsGone(lockPath: string, selfCounts = false): boolean {
  const host = hostname();
  const alive = (o: Owner) => o.host !== host || isAlive(o.pid);
  const owner = readRecord(ownerPath(lockPath));
  if (owner && alive(owner)) return false; // this process included: a second lock in one process waits too
  return !candidates(lockPath).some((c) => (c.record.pid === process.pid ? selfCounts : alive(c.record)));
}

/**
 * Removes a lock whose holder is gone. Breaking is serialised by a `<lock>.break` folder, so two
 * waiting processes cannot both break it (one could remove the lock the other had just taken); a
 * `.break` folder left by a killed process is ignored after 5 s.
 */
function breakIfHolderGone(lockPath: string): boolean {
  if (!holderIsGone(lockPath)) return false;
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
    if (!holderIsGone(lockPath)) return false;
    unlinkQuietly(ownerPath(lockPath));
    for (const c of candidates(lockPath)) if (c.record.pid !== process.pid) unlinkQuietly(c.file);
    try {
      rmdirSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    return true;
  } finally {
    try {
      rmdirSync(guard);
    } catch {
      /* gone */
    }
  }
}

/** Candidate records of processes of this machine that are gone (killed while waiting). */
function sweepDeadCandidates(lockPath: string): void {
  for (const c of candidates(lockPath)) if (c.record.host === hostname() && c.record.pid !== process.pid && !isAlive(c.record.pid)) unlinkQuietly(c.file);
}

function describeHolder(lockPath: string, selfCounts = false): string {
  const owner = readRecord(ownerPath(lockPath));
  if (!owner || (owner.pid === process.pid && !selfCounts)) return 'another tack process';
  return `another tack process (pid ${owner.pid} on ${owner.host}, since ${owner.since})`;
}

function readRecord(file: string): Owner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    if (typeof o.pid !== 'number' || typeof o.host !== 'string') return undefined;
    return { pid: o.pid, host: o.host, since: String(o.since ?? '') };
  } catch {
    return undefined;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* gone */
  }
}

/** Whether a process of this machine is alive (EPERM: it is, as another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
