/** The doctor's `hosts` section: each host is probed once; a name that does not resolve is not tried; a 502-504 marks the host down. */
import { describe, expect, it } from 'vitest';
import { diagnoseHosts } from '../../src/doctor/hosts-answer.js';
import { sayings, stubHttp, targetOf } from './helpers.js';

describe('diagnoseHosts', () => {
  it('says each host answers and returns none down', async () => {
    const { http, sent } = stubHttp(() => ({ status: 401 }));
    const { say, lines } = sayings();
    const down = await diagnoseHosts(targetOf(), http, new Set(), say);
    expect(down.size).toBe(0);
    expect(sent.map((r) => r.role)).toEqual(['tenant host', 'identity server']);
    expect(lines.map(([s, t]) => [s, t.replace(/\(\d+ ms\)/, '(n ms)')])).toEqual([
      ['ok', 'tenant host http://acme.localhost:1 answers (n ms)'],
      ['ok', 'identity server http://id.localhost:1 answers (n ms)'],
    ]);
  });

  it('does not try a host whose name does not resolve, and keeps it down', async () => {
    const { http, sent } = stubHttp(() => ({ status: 200 }));
    const { say, lines } = sayings();
    const down = await diagnoseHosts(targetOf(), http, new Set(['acme.localhost:1']), say);
    expect(sent.map((r) => r.role)).toEqual(['identity server']);
    expect(lines[0]).toEqual(['skipped', 'tenant host http://acme.localhost:1: not tried (its name does not resolve)']);
    expect([...down]).toEqual(['acme.localhost:1']);
  });

  it('marks a host that answers 503 down, with a problem', async () => {
    const { http } = stubHttp((req) => (req.role === 'identity server' ? { status: 503 } : { status: 200 }));
    const { say, lines } = sayings();
    const down = await diagnoseHosts(targetOf(), http, new Set(), say);
    expect([...down]).toEqual(['id.localhost:1']);
    expect(lines[1]![0]).toBe('problem');
    expect(lines[1]![1]).toMatch(/answered 503/);
  });
});
