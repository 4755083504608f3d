/**
 * `--out prometheus=URL`: a run's figures pushed to Prometheus through remote write (the
 * `prometheus-remote-write` package: protobuf and snappy, as the protocol asks), every
 * `--push-interval` while an engine runs and once at its end (docs/load.md, "Live metrics").
 *
 * Every series carries the run's labels: `run_id`, `profile` and `target` (the target's host and
 * port only: no credentials, no path, no query). Every label value passes through the run's
 * redactor before it leaves. Credentials in the URL (`https://user:password@host/api/v1/write`)
 * go in an Authorization header, never in a message.
 *
 * A push that fails (Prometheus down, a refusal, a timeout) never stops the run: the first failure
 * is said once, the run goes on, and the result counts the pushes that failed.
 */
import { performance } from 'node:perf_hooks';
import { pushTimeseries, type Timeseries } from 'prometheus-remote-write';
import { request } from 'undici';
import { TackError } from '../../harness/errors.js';
import type { Redactor } from '../../harness/redactor.js';
import type { EngineOptions, EngineResult } from '../engine/engine.js';
import type { Recorder } from '../engine/recorder.js';
import type { OutputsReport } from '../types.js';
import { liveFigures, samplesOf, type Sample } from './series.js';

export interface PrometheusOut {
  /** The remote-write URL (http or https), credentials included when given. */
  readonly url: string;
  readonly intervalMs: number;
}

/** The labels every series of a run carries. */
interface RunLabels {
  readonly runId: string;
  readonly profile: string;
  /** The target's base URL: only its host and port become the label. */
  readonly targetUrl: string;
}

/** A remote-write URL given to --out, checked: http or https, a host. */
export function parsePrometheusUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TackError('TACK_ERR_USAGE', '--out prometheus=URL takes the remote-write URL, e.g. prometheus=http://127.0.0.1:9090/api/v1/write');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TackError('TACK_ERR_USAGE', `--out prometheus=URL takes an http or https URL (got ${url.protocol.replace(':', '')})`);
  return url;
}

/** Host and port of a URL: what a label or a message may say of it. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unknown';
  }
}

/** The run's labels as pushed: redacted, the target reduced to its host. */
function runLabels(labels: RunLabels, redactor: Redactor | undefined): Record<string, string> {
  const clean = (s: string) => (redactor ? redactor.redact(s) : s);
  return { profile: clean(labels.profile), run_id: clean(labels.runId), target: clean(hostOf(labels.targetUrl)) };
}

/** Samples as remote-write time series: labels sorted by name (`__name__` first), one sample each at `at`. */
function timeseriesOf(samples: readonly Sample[], run: Record<string, string>, at: number, redactor: Redactor | undefined): Timeseries[] {
  const clean = (s: string) => (redactor ? redactor.redact(s) : s);
  return samples.map((s) => {
    const all: Record<string, string> = { ...run, ...Object.fromEntries(Object.entries(s.labels).map(([k, v]) => [k, clean(v)])) };
    const labels = { __name__: s.name } as Timeseries['labels'];
    for (const key of Object.keys(all).sort()) labels[key] = all[key]!;
    return { labels, samples: [{ value: s.value, timestamp: at }] };
  });
}

type Fetch = NonNullable<Parameters<typeof pushTimeseries>[1]>['fetch'];

/** undici's request (no port is refused, unlike fetch's), with a timeout, in the shape of fetch the library calls. */
function postWithTimeout(timeoutMs: number): Fetch {
  return async (url, init) => {
    const body = init?.body;
    const answer = await request(url, {
      method: 'POST',
      headers: init?.headers ?? {},
      body: body === undefined ? undefined : Buffer.from(body as unknown as Uint8Array),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: answer.statusCode, statusText: '', text: () => answer.body.text() };
  };
}

/** A failed push in a word: the socket's error code (ECONNREFUSED), `timed out`, or the message. */
function whyFailed(error: unknown): string {
  const e = error as { name?: string; code?: unknown; message?: string; cause?: { code?: unknown; message?: unknown; errors?: { code?: unknown }[] } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  const code = e.code ?? e.cause?.code ?? e.cause?.errors?.find((x) => typeof x.code === 'string')?.code;
  if (typeof code === 'string') return code;
  return typeof e.cause?.message === 'string' && e.cause.message !== '' ? e.cause.message : (e.message ?? String(error));
}

/** Pushes one engine run's figures, or several in turn (the steps of a capacity search). */
export class PrometheusOutput {
  private readonly url: string;
  private readonly auth: { username: string; password: string } | undefined;
  private readonly run: Record<string, string>;
  private recorder: Recorder | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private cpu = process.cpuUsage();
  private cpuAt = performance.now();
  private lateAt = 0;
  private answersAt = 0;
  private pushes = 0;
  private failed = 0;
  private firstError: string | undefined;

  constructor(
    private readonly out: PrometheusOut,
    labels: RunLabels,
    private readonly redactor: Redactor | undefined,
    /** Says a line (the first failure); the output never throws. */
    private readonly warn: (line: string) => void,
  ) {
    const url = parsePrometheusUrl(out.url);
    this.auth = url.username !== '' ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : undefined;
    url.username = '';
    url.password = '';
    this.url = url.toString();
    this.run = runLabels(labels, redactor);
  }

  /** Where the series go, as a message may say it: the host only. */
  get host(): string {
    return hostOf(this.url);
  }

  /** Runs one engine run with its figures pushed every interval and once at its end (before anything reads the recorder's histograms away). */
  async drive(options: EngineOptions, run: (o: EngineOptions) => Promise<EngineResult>): Promise<EngineResult> {
    let result: EngineResult;
    try {
      result = await run({
        ...options,
        onStart: (recorder) => {
          options.onStart?.(recorder);
          this.watch(recorder);
        },
      });
    } finally {
      this.stopTimer();
      this.recorder = undefined;
    }
    await this.inFlight;
    await this.pushNow(result.recorder, true);
    return result;
  }

  /** Waits for a push in flight; what the result says of the pushes. */
  async close(): Promise<NonNullable<OutputsReport['prometheus']>> {
    this.stopTimer();
    await this.inFlight;
    return {
      host: this.host,
      intervalS: this.out.intervalMs / 1000,
      pushes: this.pushes,
      failed: this.failed,
      ...(this.firstError ? { firstError: this.firstError } : {}),
    };
  }

  private watch(recorder: Recorder): void {
    this.recorder = recorder;
    this.lateAt = 0;
    this.answersAt = 0;
    this.stopTimer();
    this.timer = setInterval(() => {
      // One push at a time: a slow Prometheus skips a beat rather than piling pushes up.
      if (this.inFlight || !this.recorder) return;
      this.inFlight = this.pushNow(this.recorder, false).finally(() => (this.inFlight = undefined));
    }, this.out.intervalMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private generatorNow(recorder: Recorder) {
    const now = performance.now();
    const used = process.cpuUsage(this.cpu);
    const cpuRatio = (used.user + used.system) / 1000 / Math.max(1, now - this.cpuAt);
    this.cpu = process.cpuUsage();
    this.cpuAt = now;
    const answers = recorder.measured.responses;
    const g = {
      cpuRatio: Math.round(cpuRatio * 1000) / 1000,
      busyPct: recorder.generatorNow?.busyPct ?? 0,
      loopDelayUs: recorder.generatorNow?.loopDelayUs ?? 0,
      lateSlots: recorder.corrected ? recorder.lateSlots : null,
      lateSince: recorder.lateSlots - this.lateAt,
      answersSince: answers - this.answersAt,
    };
    this.lateAt = recorder.lateSlots;
    this.answersAt = answers;
    return g;
  }

  private async pushNow(recorder: Recorder, final: boolean): Promise<void> {
    this.pushes++;
    let series: Timeseries[];
    try {
      const samples = samplesOf(liveFigures(recorder, performance.now(), final), this.generatorNow(recorder));
      series = timeseriesOf(samples, this.run, Date.now(), this.redactor);
    } catch (error) {
      this.fail(`its figures could not be read (${(error as Error).message})`);
      return;
    }
    try {
      const answer = await pushTimeseries(series, {
        url: this.url,
        ...(this.auth ? { auth: this.auth } : {}),
        fetch: postWithTimeout(Math.max(1000, Math.min(this.out.intervalMs, 10_000))),
      });
      if (answer.status < 200 || answer.status > 299)
        this.fail(`HTTP ${answer.status}${answer.errorMessage ? `: ${answer.errorMessage.trim().slice(0, 200)}` : ''}`);
    } catch (error) {
      this.fail(whyFailed(error));
    }
  }

  private fail(why: string): void {
    this.failed++;
    const clean = this.redactor ? this.redactor.redact(why) : why;
    if (this.firstError !== undefined) return;
    this.firstError = clean;
    this.warn(`metrics: a push to Prometheus at ${this.host} failed (${clean}); the run goes on, and the result counts the pushes that failed`);
  }
}
