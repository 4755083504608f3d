/** Load goes only to loopback (unless --allow-remote), with `*.localhost` resolved by tack itself. */
import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, resolveEndpoint } from '../../../src/load/engine/target.js';

describe('load target resolution', () => {
  it('resolves *.localhost to 127.0.0.1 and keeps the real Host', async () => {
    const e = await resolveEndpoint('http://id.localhost:7070/realms/payroll', 'sign-in server', false);
    expect(e).toMatchObject({ connectUrl: 'http://127.0.0.1:7070', host: 'id.localhost:7070', pathPrefix: '/realms/payroll', loopback: true });
  });

  it.each(['127.0.0.1', '127.9.9.9', '::1', '[::1]', '::ffff:127.0.0.1'])('%s is loopback', (a) => expect(isLoopbackAddress(a)).toBe(true));
  it.each(['10.0.0.1', '192.168.1.1', '::2', '0.0.0.0'])('%s is not loopback', (a) => expect(isLoopbackAddress(a)).toBe(false));

  it('refuses a non-loopback target without --allow-remote, and names the flag', async () => {
    await expect(resolveEndpoint('https://10.20.30.40/realms/payroll', 'sign-in server', false)).rejects.toMatchObject({
      code: 'TACK_ERR_USAGE',
      message: expect.stringContaining('--allow-remote'),
    });
    const e = await resolveEndpoint('https://10.20.30.40/realms/payroll', 'sign-in server', true);
    expect(e).toMatchObject({ connectUrl: 'https://10.20.30.40:443', loopback: false });
  });
});
