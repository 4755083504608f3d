/**
 * One run of the client under test: the command started with its environment, stdin closed (it
 * reads end-of-file at once), stdout and stderr kept up to a bound, and a time limit. The command
 * gets its own process group, so that stopping it (time limit, request cap, end of the run, tack
 * stopped by a signal, tack exiting) ends whatever it started too: `sh -c 'node sync.js'` leaves no
 * `node` behind.
 */
import { spawn } from 'node:child_process';
import type { ObservedRun } from '../../suites/client/evidence.js';

/** Output kept per stream; the rest is counted, not kept. */
const MAX_OUTPUT_BYTES = 1024 * 1024;
/** After SIGTERM, how long the group has before SIGKILL. */
const GRACE_MS = 1_000;
/** After the command exits, how long its output may still take to arrive. */
const DRAIN_MS = 300;

/** How one run of the client's command ended, and what it wrote: the evidence of a run, less its requests. */
export type ProcessResult = Omit<ObservedRun, 'index' | 'requests' | 'tokenFile'>;

interface RunningProcess {
  readonly done: Promise<ProcessResult>;
  /** Stops the command because it sent too many requests. */
  cutOff(): void;
}

export function startProcess(
  command: readonly string[],
  options: { env: Record<string, string>; cwd: string; timeoutMs: number; signal?: AbortSignal | undefined },
): RunningProcess {
  const startedAt = Date.now();
  const started = performance.now();
  const posix = process.platform !== 'win32';
  let stopping: 'timed-out' | 'cut-off' | undefined;
  const out = new Output();
  const err = new Output();
  const child = spawn(command[0]!, command.slice(1), {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: posix,
    windowsHide: true,
  });
  child.stdout.on('data', (chunk: Buffer) => out.add(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.add(chunk));

  const signalGroup = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      if (posix) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      /* the group is gone already */
    }
  };
  const stop = (why: 'timed-out' | 'cut-off') => {
    if (stopping !== undefined) return;
    stopping = why;
    signalGroup('SIGTERM');
    setTimeout(() => signalGroup('SIGKILL'), GRACE_MS).unref();
  };
  const timer = setTimeout(() => stop('timed-out'), options.timeoutMs);
  // tack stopped (SIGINT, SIGTERM): the command goes too; the caller discards the run.
  const onAbort = () => stop('cut-off');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // tack exiting at once (a second signal, a crash): no group of the command outlives it.
  const onExit = () => signalGroup('SIGKILL');
  process.on('exit', onExit);
  if (options.signal?.aborted) onAbort();

  const done = new Promise<ProcessResult>((resolve) => {
    let finished = false;
    let startProblem: string | undefined;
    const finish = (exitCode: number | null, signal: string | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      process.off('exit', onExit);
      // Whatever the command left running (a daemon, a grandchild holding the pipes) ends with it.
      signalGroup('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        end: startProblem !== undefined ? 'not-started' : (stopping ?? 'exited'),
        exitCode: startProblem === undefined && stopping === undefined ? exitCode : null,
        signal,
        startProblem,
        stdout: out.text(),
        stderr: err.text(),
        outputTruncated: out.truncated || err.truncated,
        startedAt,
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return;
      startProblem = error.code ?? error.message;
      finish(null, null);
    });
    // 'close' comes once the command exited and its pipes closed; a grandchild that keeps them open
    // does not hold the run up for more than DRAIN_MS after the exit.
    child.once('close', (code, signal) => finish(code, signal));
    child.once('exit', (code, signal) => setTimeout(() => finish(code, signal), DRAIN_MS));
  });
  return { done, cutOff: () => stop('cut-off') };
}

/** One output stream, kept up to MAX_OUTPUT_BYTES. */
class Output {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  add(chunk: Buffer): void {
    const room = MAX_OUTPUT_BYTES - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
