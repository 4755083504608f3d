/** Readers: read access granted only with the hook's businesses and access; one business per tenant per run, made again after a failed create. */
import { describe, expect, it } from 'vitest';
import type { HookClient } from '../../src/harness/clients/hook.js';
import { Names } from '../../src/harness/names.js';
import { Readers } from '../../src/harness/readers.js';

function hook(capabilities: string[], failFirst = false) {
  const calls: string[] = [];
  let made = 0;
  const client = {
    has: (c: string) => capabilities.includes(c),
    createBusiness: (tenant: string) => {
      made += 1;
      calls.push(`create ${tenant}`);
      return failFirst && made === 1 ? Promise.reject(new Error('503')) : Promise.resolve(`biz-${tenant}-${made}`);
    },
    setAccess: (tenant: string, id: string, email: string, level: string) => {
      calls.push(`access ${tenant} ${id} ${email} ${level}`);
      return Promise.resolve();
    },
  };
  return { client: client as unknown as HookClient, calls };
}

describe('Readers', () => {
  it.each([
    [['businesses', 'access'], true],
    [['businesses'], false],
    [['access'], false],
  ])('with hook capabilities %j, canGrant is %s', (capabilities, can) => {
    expect(new Readers(hook(capabilities).client, new Names('r', 1), undefined).canGrant).toBe(can);
  });

  it('cannot grant without a hook, and says so when asked to', async () => {
    const readers = new Readers(undefined, new Names('r', 1), 'u@example.com');
    expect(readers.canGrant).toBe(false);
    expect(readers.configuredUser).toBe('u@example.com');
    await expect(readers.grant('acme', 'x@example.com')).rejects.toThrow(/canGrant/);
  });

  it('creates one business per tenant and grants each user read access to it', async () => {
    const { client, calls } = hook(['businesses', 'access']);
    const readers = new Readers(client, new Names('r', 1), undefined);
    const a = await readers.grant('acme', 'a@example.com');
    const b = await readers.grant('acme', 'b@example.com');
    expect(a).toMatchObject({ kind: 'business', id: 'biz-acme-1' });
    expect(b).toEqual(a);
    expect(calls).toEqual(['create acme', 'access acme biz-acme-1 a@example.com read', 'access acme biz-acme-1 b@example.com read']);
  });

  it('makes the business again after a create that failed', async () => {
    const { client } = hook(['businesses', 'access'], true);
    const readers = new Readers(client, new Names('r', 1), undefined);
    await expect(readers.grant('acme', 'a@example.com')).rejects.toThrow('503');
    await expect(readers.grant('acme', 'a@example.com')).resolves.toMatchObject({ id: 'biz-acme-2' });
  });
});
