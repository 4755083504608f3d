/**
 * Politeness to shared environments (a partner's UAT is not ours to hammer):
 *
 * - `429 Too Many Requests` is honoured: tack waits what `Retry-After` says (seconds or an HTTP
 *   date; without it 1 s, 2 s, 4 s...) and sends the request again, at most `maxRetries` times and
 *   never waiting longer than `maxWaitMs` at once. A target that asks for longer, or keeps
 *   answering 429, ends the request with TACK_ERR_RATE_LIMITED: the rule is then `error` (tack could
 *   not check it), never `failed` (a 429 is not a wrong answer to the check).
 * - `503` with a `Retry-After` within the same bounds is waited for and retried too (RFC 9110
 *   §10.2.3 gives it that meaning); a 503 without one is an answer like any other.
 * - `--rate N` (tack run) spaces requests so no more than N start in any second (burst of one).
 *
 * A retried request is sent again whole: a 429 or 503 means the target did not act on it.
 */

interface PolitenessOptions {
  /** Requests started per second at most; 0 or undefined: no limit. */
  readonly maxRps?: number | undefined;
  /** Retries after 429 (and 503 with Retry-After) per request (default 3; 0 turns retrying off). */
  readonly maxRetries?: number;
  /** Longest single wait honoured (default 30 s). */
  readonly maxWaitMs?: number;
  /** Clock and sleep, for tests. */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

type RetryDecision = { readonly kind: 'answer' } | { readonly kind: 'retry'; readonly waitMs: number } | { readonly kind: 'give-up'; readonly reason: string };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class Politeness {
  private intervalMs: number;
  private nextSlot = 0;
  readonly maxRetries: number;
  readonly maxWaitMs: number;
  private readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;

  constructor(options: PolitenessOptions = {}) {
    this.intervalMs = rpsInterval(options.maxRps);
    this.maxRetries = options.maxRetries ?? 3;
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Sets `--rate` (0: no limit). */
  setMaxRps(maxRps: number | undefined): void {
    this.intervalMs = rpsInterval(maxRps);
  }

  get maxRps(): number | undefined {
    return this.intervalMs === 0 ? undefined : 1000 / this.intervalMs;
  }

  /** Waits for this request's turn under `--rate`. Slots are reserved at once, so concurrent callers queue. */
  async turn(): Promise<void> {
    if (this.intervalMs === 0) return;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.sleep(slot - now);
  }

  /** What to do with an answer, given how many times the request was already retried. */
  decide(status: number, headers: Record<string, string>, retries: number): RetryDecision {
    if (status !== 429 && status !== 503) return { kind: 'answer' };
    const asked = retryAfterMs(headers['retry-after'], Date.now());
    if (status === 503 && asked === undefined) return { kind: 'answer' };
    if (status === 503 && (retries >= this.maxRetries || asked! > this.maxWaitMs)) return { kind: 'answer' };
    if (this.maxRetries === 0) return { kind: 'answer' };
    const waitMs = asked ?? 1000 * 2 ** retries;
    if (asked !== undefined && asked > this.maxWaitMs) {
      return {
        kind: 'give-up',
        reason:
          `answered 429 Too Many Requests and asked tack to wait ${seconds(asked)}, longer than the ${seconds(this.maxWaitMs)} tack waits; ` +
          'run again later or lower --rate',
      };
    }
    if (retries >= this.maxRetries) {
      return { kind: 'give-up', reason: `answered 429 Too Many Requests ${retries + 1} times in a row; run again later or lower --rate` };
    }
    return { kind: 'retry', waitMs: Math.min(waitMs, this.maxWaitMs) };
  }
}

/** `Retry-After` as milliseconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), 86_400) * 1000;
  // An HTTP-date always has a day or month name and a time of day; Date.parse alone takes "-1".
  if (!/[A-Za-z]{3}/.test(text) || !/\d{2}:\d{2}:\d{2}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

function rpsInterval(maxRps: number | undefined): number {
  return maxRps !== undefined && maxRps > 0 ? 1000 / maxRps : 0;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
