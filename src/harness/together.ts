/**
 * Requests sent at the same moment, each on its own connection (last-byte synchronisation, as
 * race testers do it): each request sends its headers and all of its body but the last byte at
 * once; when every one of them has done so (or `maxWaitMs` has passed), the last bytes go out
 * together, so a server sees the requests complete within a fraction of a millisecond whatever it
 * took to open the connections. `HttpClient` sends a request with a gate so (`HttpRequest.gate`);
 * the one client keeps a connection per request in flight (one request at a time on each).
 *
 * The transcript records each request's batch (`Exchange.together`), so a reproduce script sends
 * them together again.
 */

/** One request's part in a batch: it says when its body but the last byte is out, and waits for `open`. */
export interface SendGate {
  /** The batch's number in the run (the transcript's `together`). */
  readonly batch: number;
  /** The request has sent all but its last byte. */
  ready(): void;
  /** Resolves when the last bytes may go. */
  readonly open: Promise<void>;
}

/** How long a batch waits for its slowest request to be ready before sending the others' last bytes. */
const TOGETHER_MAX_WAIT_MS = 2_000;

let batches = 0;

export class Together {
  readonly batch = ++batches;
  readonly open: Promise<void>;
  #ready = 0;
  #release!: () => void;
  #timer: NodeJS.Timeout;

  constructor(
    /** How many requests the batch holds. */
    readonly count: number,
    maxWaitMs = TOGETHER_MAX_WAIT_MS,
  ) {
    this.open = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
    this.#timer = setTimeout(() => this.#release(), maxWaitMs);
    this.#timer.unref();
    void this.open.then(() => clearTimeout(this.#timer));
  }

  /** The gate of one more request of the batch. */
  gate(): SendGate {
    return {
      batch: this.batch,
      ready: () => {
        if (++this.#ready >= this.count) this.#release();
      },
      open: this.open,
    };
  }
}

/** A body sent in two writes: all but the last byte at once, the last byte when the gate opens. */
export async function* heldBody(body: string, gate: SendGate): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length > 1) yield bytes.subarray(0, bytes.length - 1);
  gate.ready();
  await gate.open;
  yield bytes.subarray(Math.max(0, bytes.length - 1));
}
