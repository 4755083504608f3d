/**
 * The run journal: every personal API token tack generated and may still be live, on disk before
 * the token is used, so that a run that dies (SIGKILL, a power cut) leaves a list the next run
 * against the same sign-in server revokes (./earlier-runs.ts). It holds only what revoking needs:
 * the sign-in server's address, the client id, and the tokens; plus who wrote it (run id, process,
 * host), so a journal of a run still alive is left alone. The tokens make it a secret: it lives in
 * a folder of its own under the OS temp folder (mode 0700, this user's), never next to the reports
 * (CI keeps those as artifacts), each file mode 0600; nothing prints its path's content.
 *
 * Whether the run that wrote a journal is alive: it holds a lock on it (proper-lockfile's
 * `<journal>.lock` folder, taken before the file is written, its mtime refreshed every 15 s, released
 * when the run ends). A journal whose lock is gone or not refreshed for a minute is dead, whatever host
 * wrote it (a kept TACK_JOURNAL_DIR seen from a new container, a shared folder). A run killed on this
 * machine is known dead at once: its process is gone, or its process id now names a process that
 * started at another time (a reused PID); "this machine" is the same boot and PID namespace, not the
 * host name, which containers share and change. A journal of tack before the lock (no `lock` in its
 * header) is judged as then: same host name, process gone.
 *
 * The file is written only when a run generates a token, appended to as tokens come and go (`+` a
 * token that may be live, `-` one revoked or rotated out), compacted when mostly dead lines, and
 * deleted when the run ends with nothing left alive (a journal older than 90 days, the tokens' absolute
 * limit, is removed unread). A generated token's line is synced to disk
 * before the token is used (fdatasync: a power cut loses none); a rotation's line is appended
 * without a sync (a kill loses nothing; a power cut within seconds of a rotation may leave the token
 * it replaced, which a Keycloak-style server no longer knows).
 *
 * The built-in reference server lives in tack's own process: its runs keep no journal.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fdatasyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSync, lockSync } from 'proper-lockfile';
import { TackError } from '../errors.js';
import { isAlive } from '../lock.js';
import { replaceFileAtomic } from '../token-file.js';

export const JOURNAL_FORMAT = 'tack-journal/1';

/** A journal older than the 90-day absolute limit lists only dead tokens (spec §3): it is removed, not revoked. */
const MAX_AGE_MS = 90 * 24 * 3600 * 1000;

/** A journal whose lock was not refreshed for this long is dead (its run refreshes it every quarter of it). */
export const JOURNAL_STALE_MS = 60_000;

/** Who wrote a journal and where its tokens are revoked. */
interface JournalHeader {
  readonly format: typeof JOURNAL_FORMAT;
  readonly identityUrl: string;
  readonly clientId: string;
  readonly run: string;
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  /** The run holds `<journal>.lock` while alive (absent in journals of tack before the lock). */
  readonly lock?: true;
  /** The process space its pid belongs to: boot id and PID namespace (Linux), else the host name. */
  readonly space?: string;
  /** When its process started, as /proc/<pid>/stat says (Linux), so a reused PID is told apart. */
  readonly processStart?: string;
}

/** A journal of another run against the same sign-in server. */
interface FoundJournal {
  readonly file: string;
  readonly header: JournalHeader;
  /** Tokens it lists as possibly live. */
  readonly tokens: readonly string[];
  /** Its process is gone (a journal of a run still running is left alone). */
  readonly dead: boolean;
}

/** The folder of this user's journals: `<os temp>/tack-journal-<uid>`. */
export function defaultJournalDir(): string {
  return join(tmpdir(), `tack-journal-${process.getuid?.() ?? 'user'}`);
}

/** Journals of one sign-in server and client id share a name prefix. */
function keyOf(identityUrl: string, clientId: string): string {
  return createHash('sha256').update(`${identityUrl}\n${clientId}`).digest('hex').slice(0, 16);
}

/** Makes the folder (mode 0700) and refuses one that is not this user's own folder. */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
      throw new TackError(
        'TACK_ERR_CONFIG',
        `the journal folder ${dir} is not a folder of this user with mode 0700: tack keeps the tokens it generates listed there ` +
          'until they are revoked; remove it (tack makes it again) or set TACK_JOURNAL_DIR',
      );
    }
  } catch (error) {
    if (error instanceof TackError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new TackError('TACK_ERR_CONFIG', `the journal folder ${dir} could not be made (${code}); set TACK_JOURNAL_DIR to a writable folder`);
  }
}

export class RunJournal {
  private fd: number | undefined;
  private lines = 0;
  private readonly live = new Set<string>();
  private readonly header: JournalHeader;
  readonly path: string;

  constructor(
    private readonly dir: string,
    target: { identityUrl: string; clientId: string },
    run: string,
  ) {
    this.header = {
      format: JOURNAL_FORMAT,
      identityUrl: target.identityUrl,
      clientId: target.clientId,
      run,
      pid: process.pid,
      host: hostname(),
      startedAt: new Date().toISOString(),
      lock: true,
      space: processSpace(),
      ...optional('processStart', processStart(process.pid)),
    };
    this.path = join(dir, `${keyOf(target.identityUrl, target.clientId)}.${run}.journal`);
  }

  /** Lists `token` as possibly live; `durable`: synced to disk before this returns. */
  add(token: string, durable: boolean): void {
    if (this.live.has(token)) return;
    this.live.add(token);
    if (this.fd === undefined)
      this.open(); // writes every live token, synced
    else this.append(`+${JSON.stringify(token)}\n`, durable);
  }

  /** `token` is revoked or rotated out. */
  remove(token: string): void {
    if (!this.live.delete(token)) return;
    this.append(`-${JSON.stringify(token)}\n`, false);
    if (this.lines > 4 * this.live.size + 256) this.compact();
  }

  /** The run is over: the file goes when nothing is left live; returns whether it is kept (its lock released: the next run takes it over). */
  finish(): boolean {
    if (this.fd === undefined) return false;
    closeSync(this.fd);
    this.fd = undefined;
    const kept = this.live.size > 0;
    if (!kept) {
      try {
        unlinkSync(this.path);
      } catch {
        /* gone */
      }
    }
    this.unlock();
    return kept;
  }

  private release: (() => void) | undefined;

  /** Takes the journal's lock (before the file exists: no moment where it looks dead); refreshed until `unlock`. */
  private lock(): void {
    try {
      this.release = lockSync(this.path, {
        realpath: false,
        lockfilePath: lockPathOf(this.path),
        stale: JOURNAL_STALE_MS,
        update: JOURNAL_STALE_MS / 4,
        // Not refreshed in time (an event loop held up for a minute) or removed: taken again where it can be.
        onCompromised: () => {
          this.release = undefined;
          if (this.fd !== undefined) this.lock();
        },
      });
    } catch {
      this.release = undefined; // held by nobody: the journal reads as dead after JOURNAL_STALE_MS, as a killed run's would
    }
  }

  private unlock(): void {
    const release = this.release;
    this.release = undefined;
    try {
      release?.();
    } catch {
      /* gone */
    }
  }

  private append(line: string, durable: boolean): void {
    if (this.fd === undefined) return; // nothing written yet: nothing to take back
    writeSync(this.fd, line);
    this.lines++;
    if (durable) fdatasyncSync(this.fd);
  }

  private open(): void {
    ensureDir(this.dir);
    this.lock();
    this.fd = openSync(this.path, 'a', 0o600);
    fchmodSync(this.fd, 0o600);
    writeSync(this.fd, `${JSON.stringify(this.header)}\n`);
    for (const token of this.live) writeSync(this.fd, `+${JSON.stringify(token)}\n`);
    fdatasyncSync(this.fd);
    this.lines = this.live.size;
  }

  /** Rewrites the file with the live tokens only (atomically: temp, fsync, rename). */
  private compact(): void {
    const text = [JSON.stringify(this.header), ...[...this.live].map((t) => `+${JSON.stringify(t)}`)].join('\n');
    replaceFileAtomic(this.path, `${text}\n`);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = openSync(this.path, 'a', 0o600);
    this.lines = this.live.size;
  }
}

/** Journals of other runs against this sign-in server and client id, in `dir`. */
export function findJournals(dir: string, target: { identityUrl: string; clientId: string }, ownRun: string): FoundJournal[] {
  const prefix = `${keyOf(target.identityUrl, target.clientId)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found: FoundJournal[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.journal') || name === `${prefix}${ownRun}.journal`) continue;
    const file = join(dir, name);
    const parsed = readJournal(file);
    if (parsed === undefined || parsed.header.identityUrl !== target.identityUrl || parsed.header.clientId !== target.clientId) continue;
    const { header } = parsed;
    const dead = isDead(file, header);
    if (dead && Date.now() - Date.parse(header.startedAt) > MAX_AGE_MS) {
      removeJournal(file);
      continue;
    }
    found.push({ file, header, tokens: parsed.tokens, dead });
  }
  return found;
}

/** Removes a journal whose tokens another run took over (it is gone already when another run did), and its dead lock. */
export function removeJournal(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* gone */
  }
  rmSync(lockPathOf(file), { recursive: true, force: true });
}

function lockPathOf(journal: string): string {
  return `${journal}.lock`;
}

/**
 * Whether the run that wrote `header` is gone: its lock released or stale, or (on this machine) its
 * process gone or its PID now another process's. A journal of tack before the lock: same host name,
 * process gone.
 */
function isDead(file: string, header: JournalHeader): boolean {
  if (header.lock !== true) return header.host === hostname() && header.pid !== process.pid && !isAlive(header.pid);
  let fresh: boolean;
  try {
    fresh = checkSync(file, { realpath: false, lockfilePath: lockPathOf(file), stale: JOURNAL_STALE_MS });
  } catch {
    fresh = false;
  }
  if (!fresh) return true;
  if (header.space === undefined || header.space !== processSpace()) return false; // another machine's: its lock says it
  if (!isAlive(header.pid)) return true;
  const start = processStart(header.pid);
  return header.processStart !== undefined && start !== undefined && start !== header.processStart;
}

/** This machine's process space: boot id and PID namespace where Linux says them, else the host name. */
export function processSpace(): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return `host:${hostname()}`;
  }
}

/** When process `pid` started (clock ticks since boot, /proc/<pid>/stat field 22); undefined where unknown. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): the 3rd field is the first.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function readJournal(file: string): { header: JournalHeader; tokens: string[] } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [first, ...rest] = text.split('\n');
  let header: JournalHeader;
  try {
    header = JSON.parse(first ?? '') as JournalHeader;
  } catch {
    return undefined;
  }
  if (header.format !== JOURNAL_FORMAT || typeof header.pid !== 'number') return undefined;
  const live = new Set<string>();
  for (const line of rest) {
    let token: unknown;
    try {
      token = JSON.parse(line.slice(1));
    } catch {
      continue; // a line cut short by the kill
    }
    if (typeof token !== 'string' || token === '') continue;
    if (line.startsWith('+')) live.add(token);
    else if (line.startsWith('-')) live.delete(token);
  }
  return { header, tokens: [...live] };
}
