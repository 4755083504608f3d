/**
 * The one clock of the reference server: real time plus an offset that only moves forward.
 *
 * Everything that judges time (access-token lifetime, the 30-day unused limit, the 90-day absolute
 * limit, the store's sweeps) calls `clock.now()`. This module is the only place in
 * `src/reference/` that reads the wall clock, so the test hook's `POST /clock` moves every limit
 * at once and nothing ages behind a test's back (the habit of mock-oauth2-server).
 */

/** Milliseconds since the epoch, as judged by the server. */
export interface Clock {
  now(): number;
  /** Moves the clock forward by whole seconds; throws a RangeError for anything else. */
  advance(seconds: number): void;
  /** How far the clock has been moved, in milliseconds. */
  readonly offsetMs: number;
}

/** Latest instant a JavaScript Date can show; the offset may never carry the clock past it. */
const MAX_DATE_MS = 8.64e15;
/** Ceiling for the offset (about 1000 years) so that `toISOString()` can never overflow. */
const MAX_OFFSET_MS = 1000 * 366 * 24 * 3600 * 1000;

export class OffsetClock implements Clock {
  #offsetMs = 0;
  readonly #realNow: () => number;

  /** `realNow` is injectable for unit tests; by default it is the wall clock. */
  constructor(realNow: () => number = () => Date.now()) {
    this.#realNow = realNow;
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  now(): number {
    return this.#realNow() + this.#offsetMs;
  }

  advance(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds < 0) {
      throw new RangeError('advance takes a whole number of seconds, 0 or more');
    }
    const next = this.#offsetMs + seconds * 1000;
    if (next > MAX_OFFSET_MS || this.#realNow() + next > MAX_DATE_MS) {
      throw new RangeError('the clock cannot be moved that far');
    }
    this.#offsetMs = next;
  }
}

const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
