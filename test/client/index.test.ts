/** src/client/index.ts: which role a recorded request went to. */
import { describe, expect, it } from 'vitest';
import { routedLabel } from '../../src/client/index.js';

const ROUTES = { 'id.localhost': 'identity', 'acme.localhost': 'tenant:acme', 'globex.localhost': 'tenant:globex' };

describe('routedLabel', () => {
  it('a revocation sent to the Host-routed listener with Host: id.localhost went to the sign-in server', () => {
    expect(routedLabel('host', { host: 'id.localhost:41234' }, ROUTES)).toBe('identity');
    expect(routedLabel('host', { host: 'ID.LOCALHOST.' }, ROUTES)).toBe('identity');
  });
  it('a tenant name on the Host-routed listener is that tenant', () => {
    expect(routedLabel('host', { host: 'globex.localhost:41234' }, ROUTES)).toBe('tenant:globex');
  });
  it('an unknown or missing Host stays on the Host-routed listener; a role listener keeps its own label', () => {
    expect(routedLabel('host', { host: 'elsewhere.example' }, ROUTES)).toBe('host');
    expect(routedLabel('host', {}, ROUTES)).toBe('host');
    expect(routedLabel('identity', { host: 'acme.localhost' }, ROUTES)).toBe('identity');
  });
});
