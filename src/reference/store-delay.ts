/**
 * The store's round trip (`tack serve --store-delay-ms N`, `ReferenceOptions.storeDelayMs`): a real
 * wait of N ms before the token store answers a rotation, as a database's round trip would take.
 * The reference's clock (`clock.ts`) is not involved: this is wall time, and only widens the window
 * in which exchanges sent at the same moment overlap. The correct path waits, then reads and
 * rotates in one step (as one conditional write would); the race faults read, wait, then write.
 *
 * Also the lock of the variant `rotation-locked-per-token`: exchanges of one presented token take
 * turns through the wait.
 */
import type { Reference } from './context.js';

const NO_WAIT = Promise.resolve();

/** Resolves after the store's delay (at once when there is none). */
export function storeRound(ref: Reference): Promise<void> {
  const ms = ref.storeDelayMs;
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : NO_WAIT;
}

/** Waits for the exchanges of `token` ahead of this one; resolves with the release of this one's turn. */
export async function lockToken(ref: Reference, token: string): Promise<() => void> {
  const ahead = ref.tokenLocks.get(token) ?? NO_WAIT;
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const turn = ahead.then(() => mine);
  ref.tokenLocks.set(token, turn);
  await ahead;
  return () => {
    release();
    if (ref.tokenLocks.get(token) === turn) ref.tokenLocks.delete(token);
  };
}
