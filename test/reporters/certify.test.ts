/**
 * `tack certify`: a run with fixed settings plus the exchange load profile, bundled with a manifest
 * of SHA-256 sums; `tack certify verify` accepts the bundle as made and names the file that was
 * changed in a tampered copy.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { create, extract, list } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFY_SETTINGS, certifyCommand, verifyCommand } from '../../src/cli/commands/certify.js';
import { isTackError } from '../../src/harness/errors.js';
import type { Manifest } from '../../src/reporters/bundle.js';
import { startTarget, type Target } from './helpers.js';

async function entries(bundle: string): Promise<string[]> {
  const names: string[] = [];
  await list({ file: bundle, onReadEntry: (e) => names.push(e.path) });
  return names.filter((n) => !n.endsWith('/')).sort();
}

describe('tack certify', () => {
  let target: Target;
  let bundle: string;
  let out = '';
  let code: number;

  beforeAll(async () => {
    target = await startTarget([]);
    const reports = mkdtempSync(join(tmpdir(), 'tack-certify-'));
    code = await certifyCommand(
      {
        envFile: target.envFile,
        reports,
        load: true,
        allowRemote: false,
        only: ['PARTNER-BAD-CREDENTIALS', 'SIGNIN-EXCHANGE'],
        loadTiming: { durationMs: 1000, warmupMs: 0 },
      },
      (s) => (out += s),
      {},
    );
    bundle = /Bundle: (\S+)/.exec(out)![1]!;
  });

  afterAll(async () => {
    await target?.server.close();
  });

  it('runs with the fixed settings and bundles results, transcript, reports and load figures with their sums', async () => {
    expect(code).toBe(0);
    expect(out).toContain(`seed ${CERTIFY_SETTINGS.seed}, ${CERTIFY_SETTINGS.runs} runs per property`);
    const names = await entries(bundle);
    const root = names[0]!.split('/')[0]!;
    expect(names.map((n) => n.slice(root.length + 1))).toEqual([
      `load/load-${CERTIFY_SETTINGS.loadProfile}.html`,
      `load/load-${CERTIFY_SETTINGS.loadProfile}.json`,
      'manifest.json',
      'run/junit.xml',
      'run/report.html',
      'run/results.json',
      'run/summary.md',
      'run/transcript.jsonl',
    ]);
    expect(out).toContain('they do not show who made it');

    let verified = '';
    expect(await verifyCommand(bundle, (s) => (verified += s))).toBe(0);
    expect(verified).toContain('all 7 files match manifest.json');
  });

  it('names the file that changed in a tampered bundle, in-process and on the command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-certify-tamper-'));
    await extract({ file: bundle, cwd: dir });
    const root = (await entries(bundle))[0]!.split('/')[0]!;
    const manifest = JSON.parse(readFileSync(join(dir, root, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.files.find((f) => f.path === 'run/summary.md')?.sha256).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(dir, root, 'run', 'summary.md'), readFileSync(join(dir, root, 'run', 'summary.md'), 'utf8').replace('PASSED', 'PASSED!'));
    const tampered = join(dir, 'tampered.tar.gz');
    await create({ gzip: true, file: tampered, cwd: dir }, [root]);

    const error = await verifyCommand(tampered, () => undefined).catch((e: unknown) => e);
    expect(isTackError(error, 'TACK_ERR_BUNDLE')).toBe(true);
    expect((error as Error).message).toContain('run/summary.md: SHA-256 differs from the manifest');
    expect((error as Error).message).not.toContain('run/results.json');

    const cli = await promisify(execFile)(process.execPath, ['bin/tack.mjs', 'certify', 'verify', tampered]).catch((e: { code: number; stderr: string }) => e);
    expect((cli as { code: number }).code).toBe(1);
    expect((cli as { stderr: string }).stderr).toContain('TACK_ERR_BUNDLE');
    expect((cli as { stderr: string }).stderr).toContain('run/summary.md');
  });
});
