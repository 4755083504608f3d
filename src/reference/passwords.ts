/**
 * Passwords of users who sign in directly at the sign-in server. Stored as scrypt (node:crypto)
 * keys with a random 16-byte salt per password (N = 2^14, r = 8, p = 1: about 40 ms on this
 * project's machine), compared with `timingSafeEqual`. An unknown user costs one derivation too, so
 * the answer time does not say whether an address exists.
 *
 * Seeded users' passwords are known (docs/reference-server.md) and derived lazily, on their first
 * use, so that starting a server (the test suite starts hundreds) costs no key derivation at all.
 * Passwords never leave this module: nothing logs them, and no answer quotes them.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** Longest password accepted anywhere (hook, sign-in form); longer input is simply wrong. */
export const MAX_PASSWORD_LENGTH = 1024;

const KEY_BYTES = 32;
const SALT_BYTES = 16;
const COST = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const DUMMY_SALT = randomBytes(SALT_BYTES);

interface Hashed {
  readonly salt: Buffer;
  readonly key: Buffer;
}

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, COST, (error, key) => (error === null ? resolve(key) : reject(error)));
  });
}

async function hash(password: string): Promise<Hashed> {
  const salt = randomBytes(SALT_BYTES);
  return { salt, key: await derive(password, salt) };
}

export class Passwords {
  /** By user id: the derived key, or (seeded users) the derivation under way or not yet started. */
  readonly #entries = new Map<string, Hashed | Promise<Hashed> | (() => Promise<Hashed>)>();

  /** Whether the user has a password (and so can sign in directly). */
  has(userId: string): boolean {
    return this.#entries.has(userId);
  }

  /** Sets a password; resolves once it is stored hashed. */
  async set(userId: string, password: string): Promise<void> {
    const pending = hash(password);
    this.#entries.set(userId, pending);
    this.#entries.set(userId, await pending);
  }

  /** A seeded user's known password, hashed on first use. */
  seed(userId: string, password: string): void {
    this.#entries.set(userId, () => hash(password));
  }

  /** Whether `password` is the user's; `undefined` (no such user) costs the same and is false. */
  async verify(userId: string | undefined, password: string): Promise<boolean> {
    const stored = userId === undefined ? undefined : await this.#stored(userId);
    if (password.length > MAX_PASSWORD_LENGTH) return false;
    const key = await derive(password, stored?.salt ?? DUMMY_SALT);
    return stored !== undefined && timingSafeEqual(key, stored.key);
  }

  async #stored(userId: string): Promise<Hashed | undefined> {
    const entry = this.#entries.get(userId);
    if (entry === undefined) return undefined;
    if (typeof entry === 'function') {
      const pending = entry();
      this.#entries.set(userId, pending);
      const done = await pending;
      if (this.#entries.get(userId) === pending) this.#entries.set(userId, done);
      return done;
    }
    return entry;
  }
}
