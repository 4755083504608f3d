/** The doctor's `hook` section: skipped when not configured or down; otherwise its contract, capabilities and what it lacks; a refusal is a problem. */
import { describe, expect, it } from 'vitest';
import { diagnoseHook } from '../../src/doctor/hook-usable.js';
import { sayings, stubHttp, targetOf } from './helpers.js';

const HOOK = { TACK_HOOK_URL: 'http://hook.localhost:1', TACK_HOOK_TOKEN: 'h' };
const EVERY = ['clock', 'users', 'api-tokens', 'disable-user', 'businesses', 'access', 'features', 'passwords'];

describe('diagnoseHook', () => {
  it('skips without a hook, with no problem to plan from', async () => {
    const { http } = stubHttp(() => ({ status: 200 }));
    const { say, lines } = sayings();
    await expect(diagnoseHook(targetOf(), http, () => false, say)).resolves.toEqual({ hook: undefined, hookProblem: undefined });
    expect(lines[0]![0]).toBe('skipped');
  });

  it('does not call a hook that is down, and names why for the plan', async () => {
    const { http, sent } = stubHttp(() => ({ status: 200 }));
    const { say } = sayings();
    const result = await diagnoseHook(targetOf(HOOK), http, () => true, say);
    expect(sent).toEqual([]);
    expect(result).toEqual({ hook: undefined, hookProblem: 'the test hook is not reachable' });
  });

  it('reports a full tack-hook/1 hook as ok, with no warning', async () => {
    const { http } = stubHttp(() => ({ status: 200, json: { contract: 'tack-hook/1', capabilities: EVERY } }));
    const { say, lines } = sayings();
    const result = await diagnoseHook(targetOf(HOOK), http, () => false, say);
    expect(result.hook?.has('clock')).toBe(true);
    expect(lines.map(([s]) => s)).toEqual(['ok']);
  });

  it('warns of another contract and of each capability it lacks', async () => {
    const { http } = stubHttp(() => ({ status: 200, json: { contract: 'mine/2', capabilities: EVERY.filter((c) => c !== 'clock') } }));
    const { say, lines } = sayings();
    await diagnoseHook(targetOf(HOOK), http, () => false, say);
    expect(lines.map(([s]) => s)).toEqual(['ok', 'warning', 'warning']);
    expect(lines[2]![1]).toMatch(/does not offer clock: rules that need it will be skipped/);
  });

  it('is a problem when the hook refuses the token', async () => {
    const { http } = stubHttp(() => ({ status: 401 }));
    const { say, lines } = sayings();
    const result = await diagnoseHook(targetOf(HOOK), http, () => false, say);
    expect(result.hook).toBeUndefined();
    expect(result.hookProblem).toMatch(/TACK_HOOK_TOKEN/);
    expect(lines[0]![0]).toBe('problem');
  });
});
