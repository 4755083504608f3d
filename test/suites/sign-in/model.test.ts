/**
 * The lifecycle model (suites/sign-in/model): its predictions at every boundary, with tolerance,
 * and the power of the command set, run against simulated sign-in servers: a conformant one (and
 * Keycloak-like variants) must pass every run, and each lifecycle fault must be found within the
 * dozen runs a `tack run` makes, whatever the seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleId } from '../../../src/rules/catalog.js';
import { lifecycleCommands, runLifecycle, type CommandList } from '../../../suites/sign-in/model/commands.js';
import { ABSOLUTE_LIMIT_S, ACCESS_TOKEN_S, DAY_S, IDLE_LIMIT_S } from '../../../src/spec.js';
import {
  afterExchange,
  afterReuse,
  boundarySeconds,
  classify,
  initialModel,
  predictAccess,
  predictExchange,
  ruleOfRefusal,
  ruleOfUnexpectedRefusal,
  secondsFor,
  type LifecycleModel,
} from '../../../suites/sign-in/model/model.js';
import type { ApiSeen, ExchangeSeen, LifecycleReal, LifecycleSystem, RevokeSeen } from '../../../suites/sign-in/model/system.js';

const TOL = 5;
/** The access-token tolerance of these tests, different from TOL so that mixing them up shows. */
const ACCESS_TOL = 3;
const TOLS = { clock: TOL, access: ACCESS_TOL };

function at(seconds: number, changes: Partial<LifecycleModel> = {}): LifecycleModel {
  return { ...initialModel(TOLS), now: seconds, ...changes };
}

describe('classify: valid up to limit - tol, invalid from limit + tol', () => {
  it.each([
    [IDLE_LIMIT_S - TOL - 1, 'valid'],
    [IDLE_LIMIT_S - TOL, 'valid'],
    [IDLE_LIMIT_S - TOL + 1, 'either'],
    [IDLE_LIMIT_S, 'either'],
    [IDLE_LIMIT_S + TOL - 1, 'either'],
    [IDLE_LIMIT_S + TOL, 'invalid'],
    [IDLE_LIMIT_S + TOL + 1, 'invalid'],
  ] as const)('%i s after the last use → %s', (elapsed, expected) => {
    expect(classify(elapsed, IDLE_LIMIT_S, TOL)).toBe(expected);
  });

  it('uses a tolerance of at least 1 s (real time runs on top of model time)', () => {
    const zero = initialModel({ clock: 0, access: 0 });
    expect([zero.tolerance, zero.accessTolerance]).toEqual([1, 1]);
    expect(predictExchange({ ...zero, now: IDLE_LIMIT_S })).toBe('either');
    expect(predictExchange({ ...zero, now: IDLE_LIMIT_S - 1 })).toBe('valid');
  });
});

describe('predictExchange', () => {
  it('a fresh token is valid until 30 days - tol unused, invalid from 30 days + tol', () => {
    expect(predictExchange(at(0))).toBe('valid');
    expect(predictExchange(at(IDLE_LIMIT_S - TOL))).toBe('valid');
    expect(predictExchange(at(IDLE_LIMIT_S))).toBe('either');
    expect(predictExchange(at(IDLE_LIMIT_S + TOL))).toBe('invalid');
  });

  it('an exchange restarts the 30 days', () => {
    const m = at(20 * DAY_S);
    afterExchange(m, true);
    m.now += IDLE_LIMIT_S - TOL;
    expect(predictExchange(m)).toBe('valid');
    m.now += 2 * TOL;
    expect(predictExchange(m)).toBe('invalid');
    expect(ruleOfRefusal(m)).toBe('SIGNIN-IDLE-EXPIRY');
  });

  it('the 90 days count from generation, however recent the last use', () => {
    const m = at(ABSOLUTE_LIMIT_S - TOL - DAY_S);
    afterExchange(m, true);
    m.now = ABSOLUTE_LIMIT_S - TOL;
    expect(predictExchange(m)).toBe('valid');
    m.now = ABSOLUTE_LIMIT_S;
    expect(predictExchange(m)).toBe('either');
    m.now = ABSOLUTE_LIMIT_S + TOL;
    expect(predictExchange(m)).toBe('invalid');
    expect(ruleOfRefusal(m)).toBe('SIGNIN-ABSOLUTE-EXPIRY');
  });

  it('revoked, disabled and refused tokens are invalid at once', () => {
    expect(predictExchange(at(1, { revoked: true }))).toBe('invalid');
    expect(ruleOfRefusal(at(1, { revoked: true }))).toBe('SIGNIN-REVOKE');
    expect(predictExchange(at(1, { disabled: true }))).toBe('invalid');
    expect(ruleOfRefusal(at(1, { disabled: true }))).toBe('SIGNIN-DISABLED-USER');
    const m = at(IDLE_LIMIT_S);
    afterExchange(m, false);
    expect(predictExchange(m)).toBe('invalid');
  });

  it('after a rotated-out token was reused, a valid exchange may go either way, an expiry still holds', () => {
    const m = at(DAY_S);
    afterExchange(m, true);
    afterReuse(m, false);
    expect(predictExchange(m)).toBe('either');
    m.now += IDLE_LIMIT_S + TOL;
    expect(predictExchange(m)).toBe('invalid');
  });

  it('an accepted reuse may have restarted the idle clock: expiry counts from it', () => {
    const m = at(0);
    afterExchange(m, true);
    m.now = 10 * DAY_S;
    afterReuse(m, true);
    m.now = IDLE_LIMIT_S + TOL;
    expect(predictExchange(m)).toBe('either');
    m.now = 10 * DAY_S + IDLE_LIMIT_S + TOL;
    expect(predictExchange(m)).toBe('invalid');
  });
});

describe('predictAccess', () => {
  it('is undefined before any exchange', () => {
    expect(predictAccess(at(0))).toBeUndefined();
  });

  it('valid until 300 s - tol, invalid from 300 s + tol', () => {
    const m = at(100);
    afterExchange(m, true);
    m.now = 100 + ACCESS_TOKEN_S - TOL;
    expect(predictAccess(m)).toBe('valid');
    m.now = 100 + ACCESS_TOKEN_S;
    expect(predictAccess(m)).toBe('either');
    m.now = 100 + ACCESS_TOKEN_S + TOL;
    expect(predictAccess(m)).toBe('invalid');
  });

  it('leaves an unexpired access token open once its grant ended (revoked, disabled)', () => {
    const m = at(0);
    afterExchange(m, true);
    m.revoked = true;
    expect(predictAccess(m)).toBe('either');
    m.now = ACCESS_TOKEN_S + TOL;
    expect(predictAccess(m)).toBe('invalid');
  });
});

describe('rules named by a failure', () => {
  it('a refusal of a token alive only thanks to an exchange blames the idle reset', () => {
    const m = at(20 * DAY_S);
    afterExchange(m, true);
    m.now += 20 * DAY_S;
    expect(predictExchange(m)).toBe('valid');
    expect(ruleOfUnexpectedRefusal(m)).toBe('SIGNIN-IDLE-RESET');
  });

  it('a refusal of a fresh token just before 30 days blames the idle limit, a first exchange blames the exchange', () => {
    expect(ruleOfUnexpectedRefusal(at(IDLE_LIMIT_S - TOL))).toBe('SIGNIN-IDLE-EXPIRY');
    expect(ruleOfUnexpectedRefusal(at(0))).toBe('SIGNIN-EXCHANGE');
  });
});

describe('clock steps', () => {
  it('a relative step aims at the limit as the model sees it now', () => {
    const m = at(DAY_S);
    afterExchange(m, true);
    expect(secondsFor({ kind: 'to', anchor: 'idle', offset: TOL }, m)).toBe(IDLE_LIMIT_S + TOL);
    expect(secondsFor({ kind: 'to', anchor: 'absolute', offset: -TOL }, m)).toBe(ABSOLUTE_LIMIT_S - TOL - DAY_S);
    expect(secondsFor({ kind: 'to', anchor: 'access', offset: ACCESS_TOL + 1 }, m)).toBe(ACCESS_TOKEN_S + ACCESS_TOL + 1);
  });

  it('a point already past, or a limit not started, moves nothing', () => {
    expect(secondsFor({ kind: 'to', anchor: 'access', offset: 0 }, at(0))).toBe(0);
    expect(secondsFor({ kind: 'to', anchor: 'idle', offset: -TOL }, at(IDLE_LIMIT_S))).toBe(0);
  });

  it('fixed steps include both sides of every tolerance window and stay positive for huge tolerances', () => {
    const s = boundarySeconds(TOLS);
    for (const v of [ACCESS_TOKEN_S - ACCESS_TOL, ACCESS_TOKEN_S + ACCESS_TOL, IDLE_LIMIT_S - TOL, IDLE_LIMIT_S + TOL]) expect(s).toContain(v);
    expect(boundarySeconds({ clock: 21_600, access: 15 }).every((v) => v > 0)).toBe(true);
  });
});

// ── the command set against simulated servers ───────────────────────────────────────────────────

interface ServerBehaviour {
  idleS: number;
  absoluteS: number;
  accessS: number;
  /** Extra seconds accepted after each limit (Keycloak adds 2 minutes to idle limits). */
  graceS: number;
  resetIdle: boolean;
  slidingAbsolute: boolean;
  revokeWorks: boolean;
  disabledRefused: boolean;
  reuse: 'refuse' | 'refuse-and-end-chain' | 'accept';
  sameRefreshToken: boolean;
}

const CONFORMANT: ServerBehaviour = {
  idleS: IDLE_LIMIT_S,
  absoluteS: ABSOLUTE_LIMIT_S,
  accessS: ACCESS_TOKEN_S,
  graceS: 0,
  resetIdle: true,
  slidingAbsolute: false,
  revokeWorks: true,
  disabledRefused: true,
  reuse: 'refuse',
  sameRefreshToken: false,
};

/** One user, one chain, a clock that also runs on by a few milliseconds per call (real time). */
class SimulatedServer implements LifecycleSystem {
  private now = 0;
  private generatedAt = 0;
  private lastUsedAt = 0;
  private current = 1;
  private next = 2;
  private previous: number[] = [];
  private ended = false;
  private revoked = new Set<number>();
  private disabled = false;
  private accessExpiresAt: number | undefined;

  constructor(private readonly b: ServerBehaviour) {}

  async newToken(): Promise<void> {
    this.tick();
    Object.assign(this, {
      generatedAt: this.now,
      lastUsedAt: this.now,
      current: this.next++,
      previous: [],
      ended: false,
      disabled: false,
      accessExpiresAt: undefined,
    });
  }

  private tick(): void {
    this.now += 0.003;
  }

  private expired(): boolean {
    const idleStart = this.b.resetIdle ? this.lastUsedAt : this.generatedAt;
    return this.now >= idleStart + this.b.idleS + this.b.graceS || this.now >= this.generatedAt + this.b.absoluteS + this.b.graceS;
  }

  private grant(token: number, own = true): ExchangeSeen {
    const refused = this.ended || this.revoked.has(token) || (this.disabled && this.b.disabledRefused) || this.expired();
    if (refused) return { status: 400, error: 'invalid_grant', success: false, rotated: false, summary: '400 invalid_grant' };
    this.lastUsedAt = this.now;
    if (this.b.slidingAbsolute) this.generatedAt = this.now;
    if (own) this.accessExpiresAt = this.now + this.b.accessS;
    return { status: 200, error: undefined, success: true, rotated: !this.b.sameRefreshToken, summary: '200' };
  }

  async exchange(): Promise<ExchangeSeen> {
    this.tick();
    if (this.previous.includes(this.current)) return { status: 400, error: 'invalid_grant', success: false, rotated: false, summary: '400 invalid_grant' };
    const seen = this.grant(this.current);
    if (seen.success && seen.rotated) {
      this.previous.push(this.current);
      this.current = this.next++;
    }
    return seen;
  }

  async reuseRotatedOut(): Promise<ExchangeSeen> {
    this.tick();
    if (this.b.reuse === 'accept') return this.grant(this.previous.at(-1)!, false);
    if (this.b.reuse === 'refuse-and-end-chain') this.ended = true;
    return { status: 400, error: 'invalid_grant', success: false, rotated: false, summary: '400 invalid_grant' };
  }

  async revoke(): Promise<RevokeSeen> {
    this.tick();
    if (this.b.revokeWorks) this.revoked.add(this.current);
    return { status: 200, emptyBody: true, summary: '200' };
  }

  async disableUser(): Promise<void> {
    this.tick();
    this.disabled = true;
  }

  async advance(seconds: number): Promise<void> {
    this.tick();
    this.now += seconds;
  }

  async useAccessToken(): Promise<ApiSeen> {
    this.tick();
    const ok = this.accessExpiresAt !== undefined && this.now < this.accessExpiresAt;
    return { status: ok ? 200 : 401, listsData: ok, summary: ok ? '200' : '401' };
  }
}

class Failed extends Error {
  constructor(
    readonly rule: RuleId,
    title: string,
  ) {
    super(`${rule}: ${title}`);
  }
}

function realOf(b: ServerBehaviour): LifecycleReal {
  return {
    system: new SimulatedServer(b),
    check(rule, title, ok) {
      if (!ok) throw new Failed(rule, title);
    },
  };
}

async function property(b: ServerBehaviour, toleranceS: number, seed: number, numRuns: number): Promise<fc.RunDetails<[CommandList]>> {
  const tolerances = { clock: toleranceS, access: ACCESS_TOL };
  const commands = lifecycleCommands({ tolerances, canDisable: true, canRead: true });
  return fc.check(
    fc.asyncProperty(commands, (cmds) => runLifecycle(cmds, tolerances, async () => realOf(b))),
    { seed, numRuns },
  );
}

describe('the lifecycle property against simulated servers', () => {
  it.each([
    ['an exact server', CONFORMANT, TOL],
    ['a server that ends the whole chain when a rotated-out token is reused', { ...CONFORMANT, reuse: 'refuse-and-end-chain' }, TOL],
    ['a server that accepts rotated-out tokens', { ...CONFORMANT, reuse: 'accept' }, TOL],
    ['a Keycloak-like server with 2 minutes of grace, at tolerance 130 s', { ...CONFORMANT, graceS: 120, reuse: 'refuse-and-end-chain' }, 130],
  ] as const)('passes %s', async (_name, behaviour, tol) => {
    const details = await property(behaviour as ServerBehaviour, tol, 42, 300);
    expect(details.failed, String(details.errorInstance)).toBe(false);
  });

  // The fault matrix runs 8 runs per property; `tack run` 12 by default.
  const faults: [string, Partial<ServerBehaviour>, RuleId[], number][] = [
    ['an unused limit of 31 days', { idleS: 31 * DAY_S }, ['SIGNIN-IDLE-EXPIRY'], 40],
    ['an exchange that does not restart the 30 days', { resetIdle: false }, ['SIGNIN-IDLE-RESET', 'SIGNIN-IDLE-EXPIRY'], 40],
    ['a 90-day limit counted from the last rotation', { slidingAbsolute: true }, ['SIGNIN-ABSOLUTE-EXPIRY'], 40],
    ['a revoke that does nothing', { revokeWorks: false }, ['SIGNIN-REVOKE'], 40],
    ["a disabled user's token that still exchanges", { disabledRefused: false }, ['SIGNIN-DISABLED-USER'], 40],
    ['a refresh token that does not rotate', { sameRefreshToken: true }, ['SIGNIN-ROTATION'], 40],
    // Not a lifecycle fault of the reference server's list (ACCESS-TOKEN-LIFETIME has its own
    // scenario, scenarios/lifecycle/access-token-retry.ts); the property finds it in most runs.
    ['access tokens that live an hour', { accessS: 3600 }, ['ACCESS-TOKEN-LIFETIME'], 28],
  ];
  it.each(faults)('finds %s within 8 runs (seeds 1 to 40)', async (_name, fault, rules, atLeast) => {
    let found = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const details = await property({ ...CONFORMANT, ...fault }, TOL, seed, 8);
      if (details.failed) {
        found += 1;
        expect(rules).toContain((details.errorInstance as Failed).rule);
      }
    }
    expect(found).toBeGreaterThanOrEqual(atLeast);
  });
});
