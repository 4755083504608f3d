/** `tack client`'s options (src/cli/commands/client.ts): durations like every other, one header pair. */
import { describe, expect, it } from 'vitest';
import { registerClient } from '../../../src/cli/commands/client.js';
import type { ClientCommandOptions } from '../../../src/cli/client-run.js';
import { parseCommandLine, refusalOf } from './command-line.js';

async function client(...args: string[]) {
  const parsed = await parseCommandLine(registerClient, ['client', 'partner-key', ...args, '--', 'node', 'sync.js']);
  const [, command, opts] = parsed.given as [string, string[], ClientCommandOptions];
  return { ...parsed, command, opts };
}

describe('tack client: time limits are durations', () => {
  it.each([
    [['--run-timeout', '2m'], 120, 300],
    [['--run-timeout', '30'], 30, 300],
    [['--deadline', '1.5m', '--run-timeout', '1500ms'], 1.5, 90],
    [[], 30, 300],
  ])('%j: each run %d s, all of it %d s', async (args, runTimeout, deadline) => {
    const { opts, command, error } = await client(...args);
    expect(error).toBeUndefined();
    expect(command).toEqual(['node', 'sync.js']);
    expect([opts.runTimeout, opts.deadline]).toEqual([runTimeout, deadline]);
  });

  it('--partner-headers: two names', async () => {
    expect((await client('--partner-headers', 'X-Id, X-Secret')).opts.partnerHeaders).toEqual(['X-Id', 'X-Secret']);
  });
});

describe('tack client refuses a value with the option and its kind (TACK_ERR_USAGE)', () => {
  it.each([
    [['--run-timeout', '500ms'], '--run-timeout', 'duration'],
    [['--deadline', 'soon'], '--deadline', 'duration'],
    [['--max-requests', '0'], '--max-requests', 'count'],
    [['--partner-headers', 'X-Id'], '--partner-headers', 'header-pair'],
    [['--partner-headers', 'X-Id,x-id'], '--partner-headers', 'header-pair'],
  ])('%j', async (args, option, kind) => {
    expect(refusalOf((await client(...args)).error)).toEqual({ code: 'TACK_ERR_USAGE', option, kind });
  });
});
