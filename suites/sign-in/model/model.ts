/**
 * The plain model of one personal API token chain (spec §3 lifecycle table, §8 limits), and the
 * pure functions that predict what the target must answer. No I/O here: the commands of the
 * model-based property (`./*-command.ts`) read and update this object, and the unit tests check
 * the predictions at every boundary.
 *
 * Time is model time: whole seconds since the token was generated, moved only by the clock
 * advances the commands make. The target's real clock keeps running on top (hook contract), a
 * fraction of a second per run; the tolerance absorbs it.
 *
 * Predictions are three-valued. Around each limit there is a window of ± tolerance in which a
 * conformant target may answer either way (Keycloak adds a grace period to idle limits; real time
 * runs on): "valid" at `limit - tolerance` or earlier, "invalid" at `limit + tolerance` or later,
 * "either" in between, where the model follows what the target did.
 */
import type { RuleId } from '../../../src/rules/catalog.js';
import { ABSOLUTE_LIMIT_S, ACCESS_TOKEN_S, DAY_S, effectiveTolerance, IDLE_LIMIT_S } from '../../../src/spec.js';
import { formatDuration } from '../../../src/text/duration.js';

/**
 * The tolerances in seconds (each at least 1: real time runs on top of model time): `clock` around
 * the 30- and 90-day limits, `access` around the 300-second access-token lifetime.
 */
export interface Tolerances {
  readonly clock: number;
  readonly access: number;
}

export function tolerancesOf(configured: { readonly clock: number; readonly access: number }): Tolerances {
  return { clock: effectiveTolerance(configured.clock), access: effectiveTolerance(configured.access) };
}

type Prediction = 'valid' | 'invalid' | 'either';

export interface LifecycleModel {
  /** Tolerance in seconds around the 30- and 90-day limits. */
  readonly tolerance: number;
  /** Tolerance in seconds around the access-token lifetime. */
  readonly accessTolerance: number;
  /** Model time, seconds since the run began (the first token's generation). */
  now: number;
  /** When the chain's first token was generated: the start of the 90-day limit, never moved. */
  generatedAt: number;
  /** Last exchange of the chain's current token that succeeded: the start of the 30-day limit. */
  lastUsedAt: number;
  /**
   * Latest moment the target may have counted as a use of the chain: `lastUsedAt`, or a later
   * accepted reuse of a rotated-out token (a server may keep one idle clock per chain). A token is
   * predicted idle-expired only when even this moment is more than 30 days back.
   */
  lastTouchedAt: number;
  /** Revoke answered 200 for the current token. */
  revoked: boolean;
  /** The user was disabled through the hook. */
  disabled: boolean;
  /** When the access token tack holds was issued (undefined: none yet). */
  accessIssuedAt: number | undefined;
  /** The API refused the access token tack holds with 401; it never comes back. */
  accessRefused: boolean;
  /** Successful exchanges, i.e. how many tokens were rotated out. */
  rotations: number;
  /**
   * A rotated-out token was sent again. The spec leaves open what that does (Keycloak-style
   * servers end the whole chain; others accept the old token until it expires), so from then on
   * an exchange the lifecycle table calls valid may succeed or fail.
   */
  tainted: boolean;
  /** An exchange of the current token was refused: expired, revoked and unusable are final states. */
  refused: boolean;
}

/** Revoked, refused or disabled: nothing can bring the chain back (spec §3: final states). */
export function hasEnded(m: Readonly<LifecycleModel>): boolean {
  return m.revoked || m.disabled || m.refused;
}

export function initialModel(configured: Tolerances): LifecycleModel {
  const tolerances = tolerancesOf(configured);
  return {
    tolerance: tolerances.clock,
    accessTolerance: tolerances.access,
    now: 0,
    generatedAt: 0,
    lastUsedAt: 0,
    lastTouchedAt: 0,
    revoked: false,
    disabled: false,
    accessIssuedAt: undefined,
    accessRefused: false,
    rotations: 0,
    tainted: false,
    refused: false,
  };
}

/** Valid up to `limit - tol`, invalid from `limit + tol` on, either in between. */
export function classify(elapsed: number, limit: number, tol: number): Prediction {
  if (elapsed <= limit - tol) return 'valid';
  if (elapsed >= limit + tol) return 'invalid';
  return 'either';
}

/** Combines two predictions of which both must hold for "valid": any "invalid" wins. */
function both(a: Prediction, b: Prediction): Prediction {
  if (a === 'invalid' || b === 'invalid') return 'invalid';
  if (a === 'valid' && b === 'valid') return 'valid';
  return 'either';
}

/** The idle limit: valid judged from the last successful exchange, invalid from the last possible use. */
function idlePrediction(m: Readonly<LifecycleModel>): Prediction {
  if (m.now - m.lastTouchedAt >= IDLE_LIMIT_S + m.tolerance) return 'invalid';
  if (m.now - m.lastUsedAt <= IDLE_LIMIT_S - m.tolerance) return 'valid';
  return 'either';
}

function absolutePrediction(m: Readonly<LifecycleModel>): Prediction {
  return classify(m.now - m.generatedAt, ABSOLUTE_LIMIT_S, m.tolerance);
}

/** What an exchange of the chain's current token must do now. */
export function predictExchange(m: Readonly<LifecycleModel>): Prediction {
  if (m.revoked || m.disabled || m.refused) return 'invalid';
  const p = both(idlePrediction(m), absolutePrediction(m));
  return p === 'valid' && m.tainted ? 'either' : p;
}

/**
 * What the API must do with the access token tack holds: "valid" (accepted: 200, or 403 for a
 * user without access), "invalid" (401), "either". Undefined when tack holds none.
 *
 * The spec says an access token lives 300 s; it says nothing about an access token whose API token
 * was revoked, whose user was disabled or whose chain ended: before its 300 s are up such a token
 * may be accepted or refused.
 */
export function predictAccess(m: Readonly<LifecycleModel>): Prediction | undefined {
  if (m.accessIssuedAt === undefined) return undefined;
  if (m.accessRefused) return 'invalid';
  const p = classify(m.now - m.accessIssuedAt, ACCESS_TOKEN_S, m.accessTolerance);
  if (p === 'valid' && (m.revoked || m.disabled || m.tainted || m.refused)) return 'either';
  return p;
}

/** The most specific rule that an exchange refused although predicted valid breaks. */
export function ruleOfUnexpectedRefusal(m: Readonly<LifecycleModel>): RuleId {
  const sinceGeneration = m.now - m.generatedAt;
  const sinceUse = m.now - m.lastUsedAt;
  // Alive only because an exchange restarted the 30 days: a refusal means the restart did not happen.
  if (m.rotations > 0 && sinceGeneration >= IDLE_LIMIT_S + m.tolerance) return 'SIGNIN-IDLE-RESET';
  if (sinceUse > IDLE_LIMIT_S - DAY_S) return 'SIGNIN-IDLE-EXPIRY';
  if (sinceGeneration > ABSOLUTE_LIMIT_S - DAY_S) return 'SIGNIN-ABSOLUTE-EXPIRY';
  return m.rotations > 0 ? 'SIGNIN-ROTATION' : 'SIGNIN-EXCHANGE';
}

/** The rule that makes a refusal necessary (or, in the "either" window, possible). */
export function ruleOfRefusal(m: Readonly<LifecycleModel>): RuleId {
  if (m.revoked) return 'SIGNIN-REVOKE';
  if (m.disabled) return 'SIGNIN-DISABLED-USER';
  if (m.refused) return 'SIGNIN-LIFECYCLE';
  if (absolutePrediction(m) !== 'valid') return 'SIGNIN-ABSOLUTE-EXPIRY';
  if (idlePrediction(m) !== 'valid') return 'SIGNIN-IDLE-EXPIRY';
  return 'SIGNIN-LIFECYCLE';
}

/** Why the model expects a refusal, in words (for check titles). */
export function reasonOfRefusal(m: Readonly<LifecycleModel>): string {
  if (m.revoked) return 'the token was revoked';
  if (m.disabled) return 'the user is disabled';
  if (m.refused) return 'the token was refused before (expired, revoked and unusable are final)';
  if (absolutePrediction(m) === 'invalid') return `${formatDuration(m.now - m.generatedAt)} after generation`;
  if (idlePrediction(m) === 'invalid') return `unused for ${formatDuration(m.now - m.lastTouchedAt)}`;
  return 'inside the tolerance window of a limit';
}

// ── model updates ──────────────────────────────────────────────────────────────────────────────

export function afterExchange(m: LifecycleModel, succeeded: boolean): void {
  if (succeeded) {
    m.lastUsedAt = m.now;
    m.lastTouchedAt = m.now;
    m.accessIssuedAt = m.now;
    m.accessRefused = false;
    m.rotations += 1;
  } else {
    m.refused = true;
  }
}

/** A new API token was generated (for a new user): a new chain starts now; time goes on. */
export function afterNewToken(m: LifecycleModel): void {
  Object.assign(m, {
    ...initialModel({ clock: m.tolerance, access: m.accessTolerance }),
    now: m.now,
    generatedAt: m.now,
    lastUsedAt: m.now,
    lastTouchedAt: m.now,
  });
}

export function afterReuse(m: LifecycleModel, accepted: boolean): void {
  m.tainted = true;
  if (accepted) m.lastTouchedAt = m.now;
}

// ── clock steps ────────────────────────────────────────────────────────────────────────────────

/** The limits a clock step can aim at, each counted from its own start. */
export type Anchor = 'access' | 'idle' | 'absolute';

/**
 * A clock move: by a fixed number of seconds, or to a point relative to one of the model's limits
 * (e.g. "to 30 days + tolerance after the last use"), resolved against the model when it runs.
 */
export type ClockStep = { readonly kind: 'by'; readonly seconds: number } | { readonly kind: 'to'; readonly anchor: Anchor; readonly offset: number };

function limitOf(anchor: Anchor): number {
  return anchor === 'access' ? ACCESS_TOKEN_S : anchor === 'idle' ? IDLE_LIMIT_S : ABSOLUTE_LIMIT_S;
}

/** When the anchor's limit starts, or undefined when it has no start yet. */
function startOf(m: Readonly<LifecycleModel>, anchor: Anchor): number | undefined {
  return anchor === 'access' ? m.accessIssuedAt : anchor === 'idle' ? m.lastUsedAt : m.generatedAt;
}

/** Seconds to move the clock for `step` now; 0 when the point aimed at is already past. */
export function secondsFor(step: ClockStep, m: Readonly<LifecycleModel>): number {
  if (step.kind === 'by') return Math.max(0, Math.round(step.seconds));
  const start = startOf(m, step.anchor);
  if (start === undefined) return 0;
  return Math.max(0, Math.round(start + limitOf(step.anchor) + step.offset - m.now));
}

/** The tolerance that applies around an anchor's limit. */
export function toleranceFor(anchor: Anchor, tolerances: Tolerances): number {
  return anchor === 'access' ? tolerances.access : tolerances.clock;
}

/** The seconds of fixed clock moves: small steps and both sides of every limit's tolerance window. */
export function boundarySeconds(configured: Tolerances): number[] {
  const { clock, access } = tolerancesOf(configured);
  const around = (limit: number, tol: number) => [limit - tol - 1, limit - tol, limit + tol, limit + tol + 1];
  const all = [1, 60, ...around(ACCESS_TOKEN_S, access), DAY_S, 20 * DAY_S, ...around(IDLE_LIMIT_S, clock), 60 * DAY_S, ABSOLUTE_LIMIT_S - clock];
  return [...new Set(all.filter((s) => s > 0))].sort((a, b) => a - b);
}

/** Offsets of relative clock moves: just inside and just outside a tolerance window of `tolerance`. */
export function boundaryOffsets(tolerance: number): number[] {
  const tol = effectiveTolerance(tolerance);
  return [-tol - 1, -tol, tol, tol + 1];
}

export function stepText(step: ClockStep, tolerances: Tolerances): string {
  if (step.kind === 'by') return `by ${formatDuration(step.seconds)}`;
  const tol = toleranceFor(step.anchor, tolerancesOf(tolerances));
  const what = step.anchor === 'access' ? 'access-token limit' : step.anchor === 'idle' ? '30-day unused limit' : '90-day limit';
  const sign = step.offset < 0 ? '-' : '+';
  const size = Math.abs(step.offset);
  const rel = size === tol ? 'tol' : size === tol + 1 ? `tol ${sign} 1 s` : formatDuration(size);
  return `to ${what} ${sign} ${rel}`;
}
