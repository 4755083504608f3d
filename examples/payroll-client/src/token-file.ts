/**
 * The personal API token's store: the token file itself. Every exchange returns a replacement token
 * and the old one stops working, so the replacement is written before anything else happens: to a
 * temporary file in the same folder, flushed to disk, then renamed over the old file (a rename is
 * atomic: a crash leaves the old token or the new one, never half a file). Mode 0600: only this user
 * may read it.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { configurationError } from './errors.js';
import { protect } from './log.js';

export class TokenFile {
  constructor(readonly path: string) {}

  read(): string {
    let token: string;
    try {
      token = readFileSync(this.path, 'utf8').trim();
    } catch (error) {
      throw configurationError(`the token file ${this.path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (token === '') throw configurationError(`the token file ${this.path} is empty`);
    protect(token);
    return token;
  }

  /** Replaces the stored token, atomically and durably. */
  replace(token: string): void {
    protect(token);
    const temp = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    try {
      const fd = openSync(temp, 'w', 0o600);
      try {
        writeSync(fd, token);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    syncFolder(dirname(this.path));
  }
}

/** Makes the rename itself durable (not possible on every platform; harmless where it is not). */
function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* Windows cannot open a folder for fsync */
  }
}
