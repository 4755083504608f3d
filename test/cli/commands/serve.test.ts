/** `tack serve`'s options (src/cli/commands/serve.ts): the grammar's parsers (the server itself: test/reference/serve.test.ts). */
import { describe, expect, it } from 'vitest';
import { registerServe, type ServeOptions } from '../../../src/cli/commands/serve.js';
import { parseCommandLine, refusalOf } from './command-line.js';

async function serve(...args: string[]) {
  const parsed = await parseCommandLine(registerServe, ['serve', ...args]);
  return { ...parsed, opts: parsed.given[0] as ServeOptions };
}

describe('tack serve', () => {
  it('reads a store delay as a duration, a bare number as milliseconds as before', async () => {
    expect((await serve('--store-delay-ms', '50')).opts.storeDelayMs).toBe(50);
    expect((await serve('--store-delay-ms', '2s')).opts.storeDelayMs).toBe(2000);
  });

  it('reads --partner-headers as tack client does', async () => {
    expect((await serve('--partner-headers', 'X-Id,X-Secret')).opts.partnerHeaders).toEqual(['X-Id', 'X-Secret']);
  });

  it.each([
    [['--store-delay-ms', '11s'], '--store-delay-ms', 'duration'],
    [['--port', '65536'], '--port', 'count'],
    [['--partner-headers', 'A,a'], '--partner-headers', 'header-pair'],
  ])('refuses %j with the option and its kind (TACK_ERR_USAGE)', async (args, option, kind) => {
    expect(refusalOf((await serve(...args)).error)).toEqual({ code: 'TACK_ERR_USAGE', option, kind });
  });
});
