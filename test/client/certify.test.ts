/**
 * `tack certify client` bundles a client run's results and transcript with their SHA-256 sums,
 * and says in the manifest what was certified; `--baseline` works for `tack client` as for `tack
 * run`: a known failure does not fail the run, and the reports say it is expected.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list } from 'tar';
import { describe, expect, it } from 'vitest';
import { certifyClientCommand, verifyCommand } from '../../src/cli/commands/certify.js';
import type { Manifest } from '../../src/reporters/bundle.js';
import { FIXTURE, runClientInProcess } from './helpers.js';

describe.concurrent('tack certify client, and baselines for tack client', () => {
  it('bundles the results and transcript; the manifest names the profile and the command; the bundle verifies', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'tack-certify-client-'));
    let out = '';
    const code = await certifyClientCommand('partner-key', [process.execPath, FIXTURE], { reports }, (s) => (out += s));
    expect(code).toBe(0);
    const bundle = /Bundle: (\S+)/.exec(out)![1]!;
    const files = new Map<string, string>();
    await list({
      file: bundle,
      onReadEntry: (entry) => {
        const chunks: Buffer[] = [];
        entry.on('data', (c: Buffer) => chunks.push(c));
        entry.on('end', () => files.set(entry.path.split('/').slice(1).join('/'), Buffer.concat(chunks).toString('utf8')));
      },
    });
    expect([...files.keys()].filter((n) => n !== '' && !n.endsWith('/')).sort()).toEqual([
      'manifest.json',
      'run/junit.xml',
      'run/report.html',
      'run/results.json',
      'run/summary.md',
      'run/transcript.jsonl',
    ]);
    const manifest = JSON.parse(files.get('manifest.json')!) as Manifest;
    expect(manifest.about).toMatchObject({ kind: 'client', profile: 'partner-key', exitCode: 0, settings: { requireAll: true } });
    expect(String(manifest.about.command)).toContain('client.mjs');
    expect(JSON.parse(files.get('run/results.json')!).client.profile).toBe('partner-key');
    expect(
      files
        .get('run/transcript.jsonl')!
        .split('\n')
        .filter((l) => l !== '').length,
    ).toBeGreaterThan(10);
    let verified = '';
    expect(await verifyCommand(bundle, (s) => (verified += s))).toBe(0);
  });

  it('a baseline naming the one failing rule makes the run pass, marked expected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tack-client-baseline-'));
    const baseline = join(dir, 'baseline.json');
    const expected = [{ rule: 'CLIENT-EXIT-STATUS', status: 'failed', reason: 'known: exits 0 on failure' }];
    writeFileSync(baseline, JSON.stringify({ schema: 'tack-baseline/1', expected }));
    const run = await runClientInProcess('partner-key', [process.execPath, FIXTURE, '--fault=wrong-exit'], { baseline });
    expect(run.exit).toBe(0);
    expect(run.rules.get('CLIENT-EXIT-STATUS')).toMatchObject({ status: 'failed', baseline: 'expected' });
  });
});
