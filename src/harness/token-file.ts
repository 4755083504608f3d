/**
 * The hookless API-token file (TACK_API_TOKEN_FILE). tack may hold the only copy of a user's
 * rotating token, so every rotation is written atomically before the new token is used:
 * a temp file (mode 0600) in the same folder, fsync, rename over the old one, fsync of the folder.
 * rename(2) is atomic, so a reader (or the next run after a kill) sees the old file or the new one,
 * whole; the fsync before it means a power cut never leaves an empty or partial file either.
 *
 * The one window no client can close is the exchange itself: once the server has rotated the token
 * and until its answer is on disk, only the answer in flight holds the new token. A server that
 * keeps the token just rotated out valid until its successor is used (the reference server does)
 * closes it; against one that refuses it at once, a kill in that window loses the chain
 * (docs/errors.md). The fsync adds a few milliseconds to that window and was kept: the issue asks
 * for durability first.
 *
 * When the path is a symbolic link, the file it points to is rewritten (next to itself), so a link
 * into a secret store keeps pointing at the current token.
 */
import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TackError } from './errors.js';

/** A token file larger than this is not a token file. */
const MAX_BYTES = 64 * 1024;

/** Makes temp names unique within a process (two rotations can fall in one millisecond). */
let writes = 0;

export function readTokenFile(path: string): string {
  let text: string;
  try {
    if (statSync(path).size > MAX_BYTES) {
      throw new TackError('TACK_ERR_TOKEN_FILE', `TACK_API_TOKEN_FILE ${path} is larger than ${MAX_BYTES / 1024} KiB: it does not hold one API token`);
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof TackError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_TOKEN_FILE', `TACK_API_TOKEN_FILE ${path} could not be read (${code}); point it at the file holding the user's API token`);
  }
  const token = text.replace(/^\uFEFF/, '').trim();
  if (token === '' || /\s/.test(token)) {
    throw new TackError(
      'TACK_ERR_TOKEN_FILE',
      `TACK_API_TOKEN_FILE ${path} must hold exactly one API token (it is ${token === '' ? 'empty' : 'not a single token'})`,
    );
  }
  return token;
}

/** The file actually rewritten: the target of a symbolic link, or the path itself. */
export function tokenFileTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function writeTokenFileAtomic(path: string, token: string): void {
  try {
    replaceFileAtomic(path, `${token}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError(
      'TACK_ERR_TOKEN_FILE',
      `the rotated API token could not be written to TACK_API_TOKEN_FILE ${path} (${code}); the previous token is unchanged`,
    );
  }
}

/**
 * Replaces the file at `path` (the target of a symbolic link) with `text`, atomically: temp file
 * (mode 0600) in the same folder, fsync, rename, fsync of the folder. Throws the file system's error;
 * the old file is then unchanged. Also used for the load token pool (src/load/chains/token-pool.ts).
 */
export function replaceFileAtomic(path: string, text: string): void {
  const target = tokenFileTarget(path);
  const dir = dirname(target);
  const temp = join(dir, `${tempPrefix(target)}${process.pid}.${Date.now().toString(36)}.${(writes++).toString(36)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    fchmodSync(fd, 0o600); // whatever the umask
    writeSync(fd, text);
    fsyncSync(fd); // durable before it replaces the old token: a power cut never leaves an empty file
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target); // from here on, every reader and every later kill sees the new token
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw error;
  }
  syncDir(dir);
}

/**
 * Removes temp files a killed tack left next to the token file (they may hold a token). Call it
 * only while holding the file's lock: then no other process is writing one. Returns how many.
 */
export function removeStaleTemps(path: string): number {
  const target = tokenFileTarget(path);
  const prefix = tempPrefix(target);
  const own = `${prefix}${process.pid}.`;
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp') || name.startsWith(own)) continue;
    try {
      unlinkSync(join(dirname(target), name));
      removed++;
    } catch {
      /* gone meanwhile */
    }
  }
  return removed;
}

/** What `tack doctor` says about a token file, without reading the token out or rotating it. */
interface TokenFileReport {
  readonly ok: boolean;
  /** Problems that stop a run. */
  readonly problems: readonly string[];
  /** Things worth fixing that do not stop a run. */
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
}

export function inspectTokenFile(path: string): TokenFileReport {
  const problems: string[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];
  try {
    readTokenFile(path);
    notes.push('readable, holds one token');
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  try {
    if (lstatSync(path).isSymbolicLink()) notes.push(`a symbolic link: rotations rewrite ${tokenFileTarget(path)}`);
  } catch {
    /* reported above */
  }
  const target = tokenFileTarget(path);
  try {
    const mode = statSync(target).mode & 0o777;
    if ((mode & 0o077) !== 0)
      warnings.push(`mode ${mode.toString(8).padStart(4, '0')}: other users can read it; tack writes 0600 at the first rotation (chmod 600 ${path})`);
  } catch {
    /* reported above */
  }
  try {
    accessSync(dirname(target), constants.W_OK);
    notes.push(`folder ${dirname(target)} writable (rotations are written next to the file, then renamed over it)`);
  } catch {
    problems.push(`folder ${dirname(target)} is not writable: tack writes each rotated token to a temp file there and renames it over TACK_API_TOKEN_FILE`);
  }
  return { ok: problems.length === 0, problems, warnings, notes };
}

function tempPrefix(target: string): string {
  return `.${basename(target)}.`;
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* some file systems cannot fsync a folder; the rename is still atomic */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
