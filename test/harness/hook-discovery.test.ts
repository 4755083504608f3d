/** discoverHook: no hook configured is no problem; a hook that refuses is a redacted problem, never a throw; a usable hook is returned. */
import { describe, expect, it } from 'vitest';
import { discoverHook } from '../../src/harness/hook-discovery.js';
import type { HttpClient, HttpRequest } from '../../src/harness/http.js';
import { Redactor } from '../../src/harness/redactor.js';
import type { TargetConfig } from '../../src/harness/target-config.js';
import { Transcript } from '../../src/harness/transcript.js';

const withHook = { hook: { url: 'http://hook.localhost:1', token: 'hook-secret-token' } } as TargetConfig;

function http(status: number, json?: unknown) {
  const seen: (string | undefined)[] = [];
  const transcript = new Transcript();
  const client = {
    send: (req: HttpRequest) => {
      seen.push(req.url);
      return Promise.resolve({ status, headers: {}, text: '', json, ms: 1, seq: 1 });
    },
  } as unknown as HttpClient;
  return { client, seen, transcript };
}

describe('discoverHook', () => {
  it('without a hook, sends nothing and names no problem', async () => {
    const { client, seen } = http(200);
    await expect(discoverHook({ target: {} as TargetConfig, http: client, redactor: new Redactor() })).resolves.toEqual({
      hook: undefined,
      problem: undefined,
    });
    expect(seen).toEqual([]);
  });

  it('returns a hook that answers with its capabilities', async () => {
    const { client } = http(200, { contract: 'tack-hook/1', capabilities: ['clock'] });
    const found = await discoverHook({ target: withHook, http: client, redactor: new Redactor() });
    expect(found.problem).toBeUndefined();
    expect(found.hook?.has('clock')).toBe(true);
  });

  it('turns a refusal into a problem with the secret redacted, and clears the transcript test', async () => {
    const { client, transcript } = http(401);
    const redactor = new Redactor();
    redactor.register('secret', 'hook.localhost');
    const found = await discoverHook({ target: withHook, http: client, redactor, transcript });
    expect(found.hook).toBeUndefined();
    expect(found.problem).toMatch(/TACK_HOOK_TOKEN/);
    expect(found.problem).not.toContain('hook.localhost');
    expect(transcript.seqsOf('hook-discovery')).toEqual([]);
  });
});
