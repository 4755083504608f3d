/**
 * The functions the exported Artillery script names, for every profile: they run the profile's own
 * conversation (load-profiles/) inside each virtual user (VU), so Artillery sends what `tack load`
 * sends and judges every answer with the same code.
 *
 * - `tackSetUp` (beforeScenario): the VU's own chain, through the profile's Artillery form;
 * - `tackSends<Kind>` (ifTrue of each request of the loop): whether the conversation's next request
 *   is of that kind;
 * - `tackRequest` (beforeRequest): that request, as the conversation built it (a VU sends one request
 *   at a time, so a rotated token is stored before the next request is built);
 * - `tackAnswer` (afterResponse): the conversation judges the answer; its outcome becomes a counter;
 * - `tackChainGoesOn` (whileTrue): until the chain ends or the VU's time is up;
 * - `tackRequestFailed` (onError): a request got no answer (Artillery then ends the VU).
 *
 * Counters (`COUNTERS`), emitted as 0 by every VU first so the script's `ensure` checks always find
 * them; an answer against the spec is also counted per request kind (`tack.against_spec.exchange`).
 */
import type { Conversation, LoadRequest, Tally } from '../engine/engine.js';
import type { LoadProfile } from '../profile.js';
import type { AnswerOutcome } from '../engine/recorder.js';
import { REQUEST_KINDS, type RequestKind } from '../types.js';
import { checkTargets, lookup, readSettings, type Settings, vuContext } from './vu-setup.js';

/** The processor's file name beside the script. */
export const PROCESSOR_FILE = 'tack-processor.cjs';

export const COUNTERS = {
  started: 'tack.chains_started',
  broken: 'tack.chains_broken',
  againstSpec: 'tack.against_spec',
  unexpectedStatus: 'tack.unexpected_status',
  transportErrors: 'tack.transport_errors',
  timeouts: 'tack.timeouts',
  setupFailed: 'tack.setup_failed',
  rotations: 'tack.rotations',
  /** A refusal the client expects (a search 401 on an access token at its lifetime). */
  expected: 'tack.expected_401',
} as const;

/** The counter each outcome of a conversation adds to (an `ok` adds to none). */
export const OUTCOME_COUNTER: Readonly<Record<Exclude<AnswerOutcome['kind'], 'ok'>, string>> = {
  expected: COUNTERS.expected,
  non2xx: COUNTERS.unexpectedStatus,
  malformed: COUNTERS.againstSpec,
  broken: COUNTERS.broken,
  // Never on Artillery: its virtual users do not probe races (docs/load.md, "Race probe").
  forked: COUNTERS.againstSpec,
};

// What Artillery 2 hands the functions (only what tack uses).
interface Events {
  emit(type: 'counter', name: string, value: number): void;
}
type Vars = Record<string, unknown>;
interface Context {
  readonly vars: Vars;
}
interface Request {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  lookup?: typeof lookup;
  https?: Record<string, unknown>;
}
interface Response {
  readonly statusCode: number;
  readonly body?: unknown;
}
type Next = (error?: Error) => void;

type SendsHook = `tackSends${Capitalize<RequestKind>}`;

/** The ifTrue function of the loop's request of `kind`. */
export function sendsHook(kind: RequestKind): SendsHook {
  return `tackSends${kind.charAt(0).toUpperCase()}${kind.slice(1)}` as SendsHook;
}

export type ArtilleryHooks = {
  tackSetUp(context: Context, events: Events): Promise<void>;
  tackRequest(req: Request, context: Context, events: Events, next: Next): void;
  tackAnswer(req: Request, res: Response, context: Context, events: Events, next: Next): void;
  tackChainGoesOn(context: Context, next: (goesOn: boolean) => void): void;
  tackRequestFailed(error: unknown, req: Request, context: Context, events: Events, next: Next): void;
} & Record<SendsHook, (vars: Vars) => boolean>;

/** One VU: its conversation, the request the loop is about to send, the one in flight, and when it stops. */
interface Vu {
  readonly conversation: Conversation;
  readonly until: number;
  events: Events;
  pending: LoadRequest | undefined;
  inFlight: LoadRequest | undefined;
}

export function artilleryHooks(
  profiles: readonly LoadProfile[],
  /** The TACK_* variables: the process's, read at the first set-up. */
  env?: NodeJS.ProcessEnv,
  now: () => number = Date.now,
): ArtilleryHooks {
  let settings: Settings | undefined;
  let guard: Promise<void> | undefined;
  const vus = new WeakMap<Vars, Vu>();
  const vuOf = (vars: Vars): Vu => {
    const vu = vus.get(vars);
    if (!vu) throw new Error('tack: this virtual user has no chain (tackSetUp did not run)');
    return vu;
  };

  const sends = (kind: RequestKind) => (vars: Vars) => {
    const vu = vus.get(vars);
    if (!vu || vu.conversation.ended) return false;
    vu.pending ??= vu.conversation.next();
    return vu.pending.kind === kind;
  };

  return {
    ...(Object.fromEntries(REQUEST_KINDS.map((k) => [sendsHook(k), sends(k)])) as Record<SendsHook, (vars: Vars) => boolean>),

    async tackSetUp(context, events) {
      for (const name of Object.values(COUNTERS)) events.emit('counter', name, 0);
      try {
        settings ??= readSettings(env ?? process.env);
        const s = settings;
        guard ??= checkTargets(s);
        await guard;
        const name = String(context.vars.tackProfile);
        const profile = profiles.find((p) => p.name === name);
        if (!profile) throw new Error(`unknown tack profile ${name}; this processor knows ${profiles.map((p) => p.name).join(', ')}`);
        let vu: Vu | undefined;
        const tally: Tally = { rotation: () => vu?.events.emit('counter', COUNTERS.rotations, 1), note: () => undefined };
        const conversation = await profile.artillery.vu(vuContext(s, tally));
        vu = { conversation, until: now() + Number(context.vars.tackDurationS) * 1000, events, pending: undefined, inFlight: undefined };
        vus.set(context.vars, vu);
      } catch (error) {
        events.emit('counter', COUNTERS.setupFailed, 1);
        throw error;
      }
      events.emit('counter', COUNTERS.started, 1);
    },

    tackRequest(req, context, events, next) {
      const vu = vuOf(context.vars);
      const request = vu.pending;
      if (!request) return next(new Error('tack: no request is due (tackRequest runs after a tackSends* condition)'));
      vu.events = events;
      vu.pending = undefined;
      vu.inFlight = request;
      const { host: _host, ...headers } = request.headers;
      req.url = `${request.origin.connectUrl}${request.path}`;
      req.method = request.method;
      req.headers = { ...req.headers, ...headers };
      if (request.body === undefined) delete req.body;
      else req.body = request.body;
      req.lookup = lookup;
      if (settings?.target.insecureTls) req.https = { ...req.https, rejectUnauthorized: false };
      return next();
    },

    tackAnswer(_req, res, context, events, next) {
      const vu = vuOf(context.vars);
      vu.events = events;
      const kind = vu.inFlight?.kind;
      vu.inFlight = undefined;
      const body = typeof res.body === 'string' ? res.body : res.body === undefined ? '' : JSON.stringify(res.body);
      const outcome = vu.conversation.answer(res.statusCode, body);
      if (outcome.kind !== 'ok') events.emit('counter', OUTCOME_COUNTER[outcome.kind], 1);
      if (outcome.kind === 'malformed' && kind !== undefined) events.emit('counter', `${COUNTERS.againstSpec}.${kind}`, 1);
      return next();
    },

    tackChainGoesOn(context, next) {
      const vu = vus.get(context.vars);
      return next(vu !== undefined && !vu.conversation.ended && now() < vu.until);
    },

    tackRequestFailed(error, _req, context, events, next) {
      const vu = vus.get(context.vars);
      if (vu?.inFlight) {
        vu.inFlight = undefined;
        vu.conversation.lost();
      }
      const code = (error as { code?: string; name?: string } | undefined)?.code ?? (error as { name?: string } | undefined)?.name;
      events.emit('counter', code === 'ETIMEDOUT' ? COUNTERS.timeouts : COUNTERS.transportErrors, 1);
      return next();
    },
  };
}
