/**
 * The example client (examples/payroll-client), as CI runs it: compiled to JavaScript (TypeScript's
 * own transpiler, one file at a time: the type check is `npm test`'s tsc), then certified through
 * `tack client` in both profiles. Every client rule passes, none is left unchecked, exit 0. Its
 * personal-token side is openid-client's standard setup (discovery at PAYROLL_IDENTITY_URL): the
 * service tack plays is faithful enough for a certified OIDC library.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientInProcess } from './helpers.js';

const SOURCE = join(import.meta.dirname, '..', '..', 'examples', 'payroll-client', 'src');
/** Inside the repository's node_modules, so that the compiled client finds its library (openid-client) as an installed one would. */
const CACHE = join(import.meta.dirname, '..', '..', 'node_modules', '.cache');
let main: string;
let out: string;

beforeAll(() => {
  mkdirSync(CACHE, { recursive: true });
  out = mkdtempSync(join(CACHE, 'tack-example-client-'));
  for (const name of readdirSync(SOURCE).filter((n) => n.endsWith('.ts'))) {
    const { outputText } = ts.transpileModule(readFileSync(join(SOURCE, name), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    writeFileSync(join(out, name.replace(/\.ts$/, '.js')), outputText);
  }
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  main = join(out, 'main.js');
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe.concurrent('the example client passes tack client', () => {
  for (const profile of ['personal-token', 'partner-key']) {
    it(`${profile}: every client rule passes, none unchecked`, async () => {
      const run = await runClientInProcess(profile, [process.execPath, main], { requireAll: true });
      expect(run.doc.rules.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`)).toEqual([]);
      expect(run.exit).toBe(0);
      // It really worked: every business listed on stdout, its log on stderr holds no token (judged above).
      const happy = run.doc.client!.scenarios.find((s) => s.id === 'happy-path')!.runs[0]!;
      expect(happy.stdout).toContain('Acme Anvils Ltd');
      if (profile === 'personal-token') expect(happy.stderr).toContain('exchanged the API token');
    });
  }
});
