/**
 * The token file's lock, in-process: waiting, stale holders and the lost lock. The file itself:
 * ./token-file.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTackError } from '../../src/harness/errors.js';
import { lockHolder, TokenFileLock } from '../../src/harness/lock.js';
import { scaled } from '../helpers/time-limits.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tack-tokenfile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fresh(content?: string, mode = 0o600): string {
  const file = join(dir, `token-${++n}`);
  if (content !== undefined) writeFileSync(file, content, { mode });
  return file;
}

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('TokenFileLock', () => {
  it('a second holder waits, then fails with TACK_ERR_TOKEN_FILE_LOCKED; after release it gets the lock', async () => {
    const file = fresh('t\n');
    const first = await TokenFileLock.acquire(file);
    expect(lockHolder(file)).toContain('another tack process');
    // In one process the second attempt is refused like another process would be (own pid aside).
    const started = performance.now();
    const error = await TokenFileLock.acquire(file, { waitMs: 300 }).catch((e: unknown) => e);
    expect(isTackError(error, 'TACK_ERR_TOKEN_FILE_LOCKED')).toBe(true);
    expect((error as Error).message).toContain('waited 0.3 s');
    expect(performance.now() - started).toBeLessThan(scaled(10_000)); // bounded
    await first.release();
    expect(lockHolder(file)).toBeUndefined();
    const second = await TokenFileLock.acquire(file, { waitMs: 300 });
    await second.release();
    expect(readdirSync(dir).filter((f) => f.startsWith(`token-${n}.lock`))).toEqual([]);
  });

  it('a lock left by a killed process (owner record of a dead pid) is taken at once', async () => {
    const file = fresh('t\n');
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.owner`, JSON.stringify({ pid: deadPid(), host: hostname(), since: 'earlier' }));
    expect(lockHolder(file)).toContain('nobody');
    const started = performance.now();
    const lock = await TokenFileLock.acquire(file, { waitMs: 20_000 });
    expect(performance.now() - started).toBeLessThan(scaled(10_000)); // far less than the 20 s it would wait for a live holder
    await lock.release();
  });

  it('a lock whose holder died between taking it and recording itself (only its candidate record) is taken at once', async () => {
    const file = fresh('t\n');
    const pid = deadPid();
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.${pid}.${hostname().replace(/[^A-Za-z0-9.-]/g, '_')}.candidate`, '');
    const lock = await TokenFileLock.acquire(file, { waitMs: 2_000 });
    expect(existsSync(`${file}.lock.${pid}.${hostname().replace(/[^A-Za-z0-9.-]/g, '_')}.candidate`)).toBe(false);
    await lock.release();
  });

  it('a lock of a live process of another machine is not broken before it goes stale', async () => {
    const file = fresh('t\n');
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.owner`, JSON.stringify({ pid: deadPid(), host: 'another-machine', since: 'now' }));
    const error = await TokenFileLock.acquire(file, { waitMs: 300 }).catch((e: unknown) => e);
    expect(isTackError(error, 'TACK_ERR_TOKEN_FILE_LOCKED')).toBe(true);
    expect((error as Error).message).toContain('on another-machine');
  });

  it('a lock lost while held (its folder removed) stops the next rotation before anything is sent', async () => {
    const file = fresh('t\n');
    const lock = await TokenFileLock.acquire(file, { staleMs: 2_000 });
    const done = lock.begin();
    done();
    rmSync(`${file}.lock`, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 1_300)); // proper-lockfile checks every second at the most
    expect(() => lock.begin()).toThrow(/was lost/);
    await lock.release();
  });

  it('begin() after release() refuses', async () => {
    const lock = await TokenFileLock.acquire(fresh('t\n'));
    await lock.release();
    expect(() => lock.begin()).toThrow(/already released/);
  });

  it('taking the lock removes temp files a killed writer left behind', async () => {
    const folder = join(dir, `lock-temps-${++n}`);
    mkdirSync(folder);
    const file = join(folder, 'token');
    writeFileSync(file, 'tpat\n');
    writeFileSync(join(folder, '.token.99999.x.0.tmp'), 'tpat_half');
    const lock = await TokenFileLock.acquire(file);
    expect(readdirSync(folder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await lock.release();
  });
});
