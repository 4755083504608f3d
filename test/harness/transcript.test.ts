/** The transcript: each exchange numbered and tagged with its test, answers and failures kept, an upper bound counted, and answered() raw and in order. */
import { describe, expect, it } from 'vitest';
import { Transcript } from '../../src/harness/transcript.js';

const ANSWER = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };

describe('Transcript', () => {
  it('numbers exchanges from 1 and tags each with the test running when it was sent', () => {
    const transcript = new Transcript({ now: () => new Date('2026-01-01T00:00:00Z') });
    transcript.setTest('a');
    const first = transcript.begin({ method: 'GET', url: 'http://x/1' });
    transcript.setTest('b');
    const second = transcript.begin({ method: 'POST', url: 'http://x/2', body: 'b' });
    expect([first, second]).toEqual([1, 2]);
    expect(transcript.seqsOf('a')).toEqual([1]);
    expect(transcript.seqsOf('b')).toEqual([2]);
  });

  it('lists only answered exchanges, in order, with whether tack honoured a retry', () => {
    const transcript = new Transcript();
    const a = transcript.begin({ method: 'GET', url: 'http://x/a' });
    const b = transcript.begin({ method: 'GET', url: 'http://x/b' });
    const c = transcript.begin({ method: 'GET', url: 'http://x/c' });
    transcript.end(a, ANSWER, 1.23456);
    transcript.fail(b, { code: 'ECONNRESET', message: 'reset' }, 2);
    transcript.end(c, { ...ANSWER, status: 429 }, 3);
    transcript.retried(c, 1000.4);
    expect(transcript.answered().map((e) => [e.seq, e.url, e.response.status, e.retried])).toEqual([
      [1, 'http://x/a', 200, false],
      [3, 'http://x/c', 429, true],
    ]);
  });

  it('keeps at most maxEntries exchanges and counts the rest as not kept', () => {
    const transcript = new Transcript({ maxEntries: 2 });
    for (let i = 0; i < 5; i++) transcript.begin({ method: 'GET', url: `http://x/${i}` });
    expect(transcript.size).toBe(2);
    expect(transcript.notKept).toBe(3);
  });

  it('ignores an end for an exchange it did not keep', () => {
    const transcript = new Transcript({ maxEntries: 1 });
    transcript.begin({ method: 'GET', url: 'http://x/0' });
    const dropped = transcript.begin({ method: 'GET', url: 'http://x/1' });
    expect(() => transcript.end(dropped, ANSWER, 1)).not.toThrow();
    expect(transcript.answered()).toEqual([]);
  });
});
