/**
 * The token pool of hookless load runs (`--token-pool FILE` or `TACK_LOAD_TOKEN_POOL`): one personal
 * API token per line, each the start of one chain (one connection). Blank lines are ignored.
 *
 * Exchanging rotates every token, and after a run the old ones are dead: the file is the only copy
 * of the new ones. So tack rewrites it with the current token of each chain it drives: once a
 * second while the run goes on (when something rotated) and once at the end. Every write is
 * atomic (temp file in the same folder, fsync, rename, fsync the folder, mode 0600) and made under
 * a lock (proper-lockfile), re-reading the file first and replacing only this run's lines, so
 * shards on one machine can share one pool file.
 */
import { readFileSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { TackError } from '../../harness/errors.js';
import { replaceFileAtomic } from '../../harness/token-file.js';
import { ownsLine, type Shard } from '../shard.js';

interface PoolEntry {
  /** Position among the pool's tokens (0-based, blank lines not counted). */
  readonly index: number;
  readonly token: string;
}

function tokensOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_TOKEN_FILE', `the token pool ${path} could not be read (${code}); it holds one personal API token per line`);
  }
}

/** This shard's tokens of the pool. */
export function readPool(path: string, shard: Shard | undefined): PoolEntry[] {
  const tokens = tokensOf(readText(path));
  if (tokens.some((t) => /\s/.test(t))) throw new TackError('TACK_ERR_TOKEN_FILE', `the token pool ${path} must hold one token per line, without spaces`);
  const entries = tokens.map((token, index) => ({ index, token })).filter((e) => ownsLine(e.index, shard));
  if (entries.length === 0)
    throw new TackError('TACK_ERR_TOKEN_FILE', `the token pool ${path} holds no token${shard ? ` for shard ${shard.index}/${shard.count}` : ''}`);
  return entries;
}

/** Writes the current tokens of this run's chains over their lines, atomically and under the lock. */
export async function writePool(path: string, current: ReadonlyMap<number, string>): Promise<void> {
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(path, { realpath: false, stale: 10_000, retries: { retries: 20, minTimeout: 20, maxTimeout: 200 } });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_TOKEN_FILE_LOCKED', `the token pool ${path} could not be locked (${code}); the rotated tokens were not written`);
  }
  try {
    const tokens = tokensOf(readText(path));
    for (const [index, token] of current) if (index < tokens.length) tokens[index] = token;
    writeAtomic(path, `${tokens.join('\n')}\n`);
  } finally {
    await release().catch(() => undefined);
  }
}

function writeAtomic(path: string, text: string): void {
  try {
    replaceFileAtomic(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_TOKEN_FILE', `the rotated tokens could not be written to the token pool ${path} (${code}); the previous file is unchanged`);
  }
}
