/**
 * The hookless API-token file (TACK_API_TOKEN_FILE). tack may hold the only copy of a user's
 * rotating token, so every rotation is written atomically before the new token is used:
 * temp file in the same folder, fsync, rename over the old one, fsync the folder, mode 0600.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TackError } from './errors.js';

export function readTokenFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_TOKEN_FILE', `TACK_API_TOKEN_FILE ${path} could not be read (${code}); point it at the file holding the user's API token`);
  }
  const token = text.trim();
  if (token === '' || /\s/.test(token)) {
    throw new TackError('TACK_ERR_TOKEN_FILE', `TACK_API_TOKEN_FILE ${path} must hold exactly one API token (it is ${token === '' ? 'empty' : 'not a single token'})`);
  }
  return token;
}

export function writeTokenFileAtomic(path: string, token: string): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w', 0o600);
    writeSync(fd, `${token}\n`);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
    syncDir(dir);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TackError('TACK_ERR_TOKEN_FILE', `the rotated API token could not be written to TACK_API_TOKEN_FILE ${path} (${code}); the previous token is unchanged`);
  }
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
