/**
 * Stopping a command the ordinary way (Ctrl-C's SIGINT, a CI runner's or `timeout`'s SIGTERM).
 *
 * The first signal asks the command to stop: the runner starts no other test and abandons the one
 * under way, nothing more is sent but the clean-up (revoke calls marked `cleanup`), the tokens tack
 * generated are revoked, every report is written with the status `interrupted`, and the command
 * exits 130 (SIGINT) or 143 (SIGTERM). A second signal exits at once, with the same code: what the run
 * generated is then still listed in its journal, and the next run against the target revokes it.
 * Even then, an exchange of the token file in flight is let land first (`holdExit`, bounded): its
 * answer holds the only copy of the user's token.
 */
import { EXIT, TackError } from './errors.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** Exit codes of a stopped command (src/harness/errors.ts EXIT). */
const STOP_EXIT: Readonly<Record<StopSignal, number>> = { SIGINT: EXIT.sigint, SIGTERM: EXIT.sigterm };

/** Longest a second signal waits for the holds (an exchange of the token file in flight). */
const HOLD_GRACE_MS = 15_000;

/** One command's stop request: set by the first signal (or by a test), read by the runner. */
export class Interrupt {
  private readonly controller = new AbortController();
  private signalName: StopSignal | undefined;
  private resolveStopped!: (signal: StopSignal) => void;
  /** Resolves with the signal once a stop was asked for. */
  readonly stopped: Promise<StopSignal> = new Promise((resolve) => (this.resolveStopped = resolve));

  /** The signal that asked to stop, or undefined. */
  get signal(): StopSignal | undefined {
    return this.signalName;
  }

  /** Aborted on the stop, with the signal's name as its reason (the load engine, a client's process). */
  get abortSignal(): AbortSignal {
    return this.controller.signal;
  }

  /** The exit code the command ends with when stopped. */
  get exitCode(): number | undefined {
    return this.signalName === undefined ? undefined : STOP_EXIT[this.signalName];
  }

  /** Asks to stop (the first call counts). */
  trigger(signal: StopSignal): void {
    if (this.signalName !== undefined) return;
    this.signalName = signal;
    this.controller.abort(signal);
    this.resolveStopped(signal);
  }
}

/** The text of a stop, for reports and error messages. */
export function stopText(signal: StopSignal): string {
  return `the run was stopped by ${signal} (${signal === 'SIGINT' ? 'Ctrl-C' : 'a termination request'})`;
}

/** The error a stop ends a command with: TACK_ERR_INTERRUPTED, exit 130 or 143. */
export function stopError(signal: StopSignal): TackError {
  return new TackError('TACK_ERR_INTERRUPTED', stopText(signal), { exitCode: STOP_EXIT[signal] });
}

let installed = 0;
const holds = new Set<() => Promise<void>>();

/** True while a command handles stop signals itself (the token file's lock then leaves them to it). */
export function stopHandled(): boolean {
  return installed > 0;
}

/** Something a second signal must wait for before the process exits (bounded); returns its removal. */
export function holdExit(wait: () => Promise<void>): () => void {
  holds.add(wait);
  return () => holds.delete(wait);
}

/**
 * Installs the signal handlers of a command: the first SIGINT or SIGTERM triggers the returned
 * interrupt (and says so on `say`), a second exits at once. `uninstall` when the command is done:
 * a stopped command then exits as soon as its last words are written, whatever an abandoned test
 * still has under way (a browser step waiting out its time limit).
 */
export function handleStopSignals(say: (text: string) => void): { interrupt: Interrupt; uninstall(): void } {
  const interrupt = new Interrupt();
  let exiting = false;
  const onSignal = (signal: StopSignal) => {
    if (interrupt.signal === undefined) {
      say(
        `\ntack: ${signal}: stopping: no new requests, the test under way abandoned, the tokens tack generated revoked, ` +
          `every report written (a second ${signal} exits at once)\n`,
      );
      interrupt.trigger(signal);
      return;
    }
    if (exiting) return;
    exiting = true;
    say(`\ntack: ${signal} again: exiting now; the next run against this target revokes what this one generated\n`);
    const code = STOP_EXIT[interrupt.signal];
    const waited = Promise.all([...holds].map((wait) => wait().catch(() => undefined)));
    const grace = new Promise((resolve) => setTimeout(resolve, HOLD_GRACE_MS).unref());
    void Promise.race([waited, grace]).then(() => process.exit(code));
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  installed++;
  return {
    interrupt,
    uninstall() {
      for (const s of SIGNALS) process.off(s, onSignal);
      installed--;
      if (interrupt.signal !== undefined) setImmediate(() => process.exit());
    },
  };
}
