import { describe, expect, it } from 'vitest';
import type { ObservedRequest } from '../../../../src/checks/observed-request.js';
import type { TokenFileState } from '../../../../suites/client/evidence.js';
import { rulesOf } from '../../../../suites/client/index.js';
import { tokenFileSafe } from '../../../../suites/client/judges/token-file-safe.js';
import { exchange, FIRST, judged, run, scenario, search } from '../../../helpers/client-evidence.js';

type File = TokenFileState | null | undefined;
const verdicts = (before: File, after: File, requests: ObservedRequest[] = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')]) => {
  const tokenFile = before === undefined && after === undefined ? undefined : { before: before ?? null, after: after ?? null };
  return judged(tokenFileSafe, scenario('happy-path', 'personal-token', [run(3, requests, { tokenFile })]));
};
const file = (ino: number, content: string, mode = 0o600): TokenFileState => ({ ino, mode, content });

describe('CLIENT-TOKEN-FILE-SAFE', () => {
  it('is judged for a personal-token client only', () => {
    expect(rulesOf('personal-token', 'happy-path')).toContain('CLIENT-TOKEN-FILE-SAFE');
    expect(rulesOf('partner-key', 'happy-path')).not.toContain('CLIENT-TOKEN-FILE-SAFE');
  });

  it('the returned token renamed over the file, owner only, passes both checks, on the run', () => {
    const { checks } = verdicts(file(1, FIRST), file(2, 'tpat_r1'));
    expect(checks.map((c) => [c.ok, c.seqs, c.run])).toEqual([
      [true, [], 3],
      [true, [], 3],
    ]);
  });

  it('rewritten in place fails the first check; left readable by others, the second', () => {
    expect(verdicts(file(1, FIRST), file(1, 'tpat_r1')).oks).toEqual(['failed', 'ok']);
    expect(verdicts(file(1, FIRST), file(2, 'tpat_r1', 0o644)).oks).toEqual(['ok', 'failed']);
  });

  it('the token is read from the file as a line: a trailing newline is the same token', () => {
    expect(verdicts(file(1, FIRST), file(2, 'tpat_r1\n')).oks).toEqual(['ok', 'ok']);
  });

  it('a new file holding the same returned token is a write: judged', () => {
    const requests = [exchange(1, 'tpat_r1', { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')];
    expect(verdicts(file(1, 'tpat_r1'), file(2, 'tpat_r1', 0o644), requests).oks).toEqual(['ok', 'failed']);
  });

  it('a file not written, missing before or after, or not watched at all, is not judged', () => {
    expect(verdicts(file(1, FIRST, 0o644), file(1, FIRST, 0o644)).checks).toEqual([]);
    expect(verdicts(null, file(2, 'tpat_r1', 0o644)).checks).toEqual([]);
    expect(verdicts(file(1, FIRST), null).checks).toEqual([]);
    expect(verdicts(undefined, undefined).checks).toEqual([]);
  });

  it('a server that returns the same token: the file left as it was is no write, not judged', () => {
    const requests = [exchange(1, 'tpat_r1', { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1')];
    expect(verdicts(file(1, 'tpat_r1', 0o644), file(1, 'tpat_r1', 0o644), requests).checks).toEqual([]);
  });

  it('a file holding no token an exchange of that run returned is not the client store: not judged', () => {
    expect(verdicts(file(1, FIRST), file(1, 'something else', 0o644)).checks).toEqual([]);
    const answeredByApi = [exchange(1, FIRST, { access: 'at_1', refresh: 'tpat_r1' }), search(1, 'at_1', 200, { answer: { refresh_token: 'tpat_from_api' } })];
    expect(verdicts(file(1, FIRST), file(1, 'tpat_from_api', 0o644), answeredByApi).checks).toEqual([]);
  });
});
