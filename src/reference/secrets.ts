/**
 * Secrets and their comparison. Every comparison of a secret goes through `safeEqual`, which hashes
 * both sides to fixed-length digests and compares those with `crypto.timingSafeEqual`, so neither
 * the content nor the length of the expected secret leaks through timing.
 */
import { createHash, createHmac, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

/**
 * Random bytes are drawn from a pool refilled from the CSPRNG 4 KiB at a time: one randomBytes()
 * call per token costs about as much as the rest of an exchange (the habit of Node's own
 * randomUUID). Bytes are never handed out twice.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** A fresh random secret: `bytes` random bytes, base64url (43 characters for 32 bytes). */
export function randomSecret(bytes = 32): string {
  if (bytes > POOL_SIZE) return randomBytes(bytes).toString('base64url');
  if (poolOffset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const secret = pool.toString('base64url', poolOffset, poolOffset + bytes);
  pool.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return secret;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Timing-safe equality of two strings of any length. */
export function safeEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * An HMAC-SHA-256 key of one server instance. It signs access tokens and reset links and tags
 * opaque tokens, so that anything the server did not issue is recognised without a lookup.
 */
export class MacKey {
  readonly #key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    this.#key = key;
  }

  /** The full 32-byte MAC of `data`. */
  mac(data: string): Buffer {
    return createHmac('sha256', this.#key).update(data, 'utf8').digest();
  }

  /** The MAC of `data`, truncated to `bytes`, base64url. */
  tag(data: string, bytes = 32): string {
    const full = this.mac(data);
    return (bytes >= full.length ? full : full.subarray(0, bytes)).toString('base64url');
  }

  /**
   * Whether `tag` is the (truncated) MAC of `data`, compared in constant time. The comparison is
   * on the canonical base64url text, so no second spelling of a tag is ever accepted.
   */
  verify(data: string, tag: string, bytes = 32): boolean {
    const expected = Buffer.from(this.tag(data, bytes), 'utf8');
    const given = Buffer.from(tag, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
