/**
 * No secret of a `tack client` run reaches any output: not the partner secret or the API token the
 * client was given, not a token the server handed it, even when the client itself prints them or
 * puts them in URLs, base64-encoded and cut over lines (the faults below make sure the secrets are there to leak). Checked in-process
 * (every file of the run folder and the console) and as a child process (`node bin/tack.mjs client`,
 * files, stdout and stderr). The client records what it was given and every token it received to a
 * side file, which only this test reads; in-process, every token the server sent is captured too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIssuedTokens, type Capture, filesUnder, findSecrets } from '../reporters/secrets.js';
import { FIXTURE, runClientInProcess } from './helpers.js';

let capture: Capture;
let dir: string;

beforeAll(() => {
  capture = captureIssuedTokens();
  dir = mkdtempSync(join(tmpdir(), 'tack-client-redaction-'));
});
afterAll(() => capture?.stop());

/** The secrets the client recorded, as `configured` secrets (searched whole and piece by piece). */
function given(file: string): Record<string, string> {
  const values = readFileSync(file, 'utf8')
    .split('\n')
    .filter((v) => v !== '');
  return Object.fromEntries(values.map((v, i) => [`secret given to the client #${i + 1}`, v]));
}

describe.concurrent('redaction: tack client writes and prints no secret', () => {
  it('in-process, with clients that print their access tokens and put them in URLs', async () => {
    const texts = new Map<string, string>();
    const side = join(dir, 'in-process.txt');
    // The partner-key client that prints its tokens runs as a child process below.
    const cases = [
      ['personal-token', 'log-encoded'],
      ['partner-key', 'token-in-url'],
      // A token in upper-case hex, in a URL (transcript.jsonl) and in the output.
      ['partner-key', 'hex-in-url'],
      ['personal-token', 'log-hex'],
    ] as const;
    const command = (fault: string) => [process.execPath, FIXTURE, `--fault=${fault}`, `--record-secrets=${side}`];
    const runs = await Promise.all(cases.map(([profile, fault]) => runClientInProcess(profile, command(fault))));
    for (const [i, run] of runs.entries()) {
      const [profile, fault] = cases[i]!;
      expect(run.exit).toBe(1);
      for (const [path, text] of filesUnder(run.runDir)) texts.set(path, text);
      texts.set(`console of ${profile} ${fault}`, run.out);
      // The leak was there to be redacted: the report shows the client's stderr with a placeholder.
      if (fault === 'log-encoded') expect(readFileSync(join(run.runDir, 'report.html'), 'utf8')).toMatch(/debug: access token \(base64\)\s+&lt;access-token#/);
      if (fault === 'hex-in-url') expect(readFileSync(join(run.runDir, 'transcript.jsonl'), 'utf8')).toMatch(/search\?t=<access-token#\d+>/);
      if (fault === 'log-hex') expect(readFileSync(join(run.runDir, 'results.json'), 'utf8')).toContain('debug: access token (hex) <access-token#');
    }
    expect(capture.tokens.size).toBeGreaterThan(20);
    expect(findSecrets(texts, given(side), capture.tokens)).toEqual([]);
    // Nor in the form the client printed it: base64 cut over lines (in a file, or escaped in JSON), hex in either case.
    const encoded = [...capture.tokens].flatMap((t) => {
      const bytes = Buffer.from(t);
      return [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
    });
    const joined = [...texts].map(([where, text]) => [where, text.replace(/\s*(\\n|\n)\s*/g, '')] as const);
    expect(joined.filter(([, text]) => encoded.some((form) => text.includes(form))).map(([where]) => where)).toEqual([]);
  });

  it('as a child process: files, stdout and stderr', async () => {
    const reports = mkdtempSync(join(dir, 'child-'));
    const side = join(dir, 'child.txt');
    const client = [process.execPath, FIXTURE, '--fault=log-token', `--record-secrets=${side}`];
    const args = ['bin/tack.mjs', 'client', 'partner-key', '--reports-dir', reports, '--', ...client];
    type Ended = { code?: number; stdout: string; stderr: string };
    const child: Ended = await promisify(execFile)(process.execPath, args, { cwd: process.cwd() }).catch((error: Ended) => error);
    expect(child.code).toBe(1);
    expect(readdirSync(reports).filter((n) => !n.startsWith('.'))).toHaveLength(1);
    const texts = filesUnder(reports);
    expect(texts.size).toBe(5);
    texts.set('stdout', child.stdout);
    texts.set('stderr', child.stderr);
    expect(child.stdout).toContain('✘ CLIENT-SECRETS-NOT-LOGGED');
    // The child's server ran in another process: the side file holds the tokens its client received.
    expect(Object.keys(given(side)).length).toBeGreaterThan(10);
    expect(texts.get(join(reports, readdirSync(reports)[0]!, 'results.json'))).toContain('debug: access token <access-token#');
    expect(findSecrets(texts, given(side), capture.tokens)).toEqual([]);
  });
});
