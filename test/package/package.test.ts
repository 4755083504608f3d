/**
 * tack as a package others install: `npm pack` builds the compiled package, which installs into a
 * folder outside this repository and runs there with `npx tack` (no TypeScript, no tsx), writing
 * its reports under that folder: `--version`, `rules` (from the trace the build computed), `run`
 * against the built-in server, and `run --env-file` against a reference served by `tack serve`
 * (which stops with the npx that started it).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_PREFIX } from '../../src/cli/commands/serve.js';
import { ruleTraces } from '../../src/cli/rule-trace.js';
import { ROOT } from '../helpers/sources.js';
import { scaled } from '../helpers/time-limits.js';

let dir: string;
let tarball: string;
const npxEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', npm_config_update_notifier: 'false', NO_COLOR: '1' };

function tack(args: string[]): { code: number; out: string } {
  try {
    return {
      code: 0,
      out: execFileSync('npx', ['--no-install', 'tack', ...args], {
        cwd: join(dir, 'project'),
        env: npxEnv,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, out: `${e.stdout}${e.stderr}` };
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tack-package-'));
  const packed = execFileSync('npm', ['pack', '--pack-destination', dir, '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  tarball = join(dir, (JSON.parse(packed) as { filename: string }[])[0]!.filename);
  const project = join(dir, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), '{"name":"a-pipeline","private":true}\n');
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: project, env: process.env });
}, scaled(180_000));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the package', () => {
  it('ships compiled JavaScript, docs and the CI files, and no sources or tests', () => {
    const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files).toContain('package/dist/src/cli/main.js');
    expect(files).toContain('package/docs/contracts/target-config.md');
    expect(files).toContain('package/action.yml');
    expect(files).toContain('package/LICENSE');
    expect(files.filter((f) => /\.ts$|^package\/(test|src|suites)\//.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(dir, 'project/node_modules/@tack-conformance/tack/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(Object.keys(manifest.dependencies as object)).not.toContain('tsx');
  });

  it('tack --version', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(tack(['--version'])).toEqual({ code: 0, out: `${pkg.version}\n` });
  });

  it('tack rules reads the trace the build computed from the sources: their paths and lines, not the compiled ones', () => {
    const { code, out } = tack(['rules', 'SIGNIN-ROTATION', '--json']);
    expect(code, out).toBe(0);
    const installed = (JSON.parse(out) as { rules: { checkSites: string[] }[] }).rules[0]!.checkSites;
    expect(installed).toEqual(ruleTraces(['SIGNIN-ROTATION'])[0]!.checkSites);
  });

  it('tack run against the built-in server, reports under the current folder', () => {
    const { code, out } = tack(['run', '--only', 'SIGNIN-EXCHANGE,PARTNER-MINT']);
    expect(code, out).toBe(0);
    const runs = readdirSync(join(dir, 'project', 'reports'));
    expect(runs).toHaveLength(1);
    expect(existsSync(join(dir, 'project', 'reports', runs[0]!, 'junit.xml'))).toBe(true);
  });

  it('tack run --env-file against a served reference; stopping the npx that started tack serve stops the server', async () => {
    const project = join(dir, 'project');
    const serve = spawn('npx', ['--no-install', 'tack', 'serve', '--env-out', 'served.env', '--pid-file', 'serve.pid'], { cwd: project, env: npxEnv });
    let out = '';
    const ready = await new Promise<{ envFile: string; pid: number }>((resolve, reject) => {
      serve.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith(READY_PREFIX));
        if (line) resolve(JSON.parse(line.slice(READY_PREFIX.length)) as { envFile: string; pid: number });
      });
      serve.on('exit', () => reject(new Error(`tack serve ended early: ${out}`)));
    });
    try {
      const { code, out: run } = tack(['run', '--env-file', 'served.env', '--only', 'PARTNER-HEADERS-REQUIRED', '--reports-dir', 'served-reports']);
      expect(code, run).toBe(0);
      expect(readdirSync(join(project, 'served-reports'))).toHaveLength(1);
    } finally {
      serve.kill('SIGTERM');
    }
    // npm's exec forwards the signal to tack and ends by it itself (code 0, or no code and the signal).
    const exited = await new Promise<number | null>((resolve) => serve.on('exit', resolve));
    expect([0, null]).toContain(exited);
    // The server process (not only the npx wrapper) is gone, and it removed its env file.
    for (let i = 0; i < 50 && isAlive(ready.pid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(ready.pid)).toBe(false);
    expect(existsSync(ready.envFile)).toBe(false);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A reference server with a fault, served by the installed package; its env file and a stop function. */
async function servedFaulty(fault: string): Promise<{ envFile: string; stop: () => Promise<void> }> {
  const project = join(dir, 'project');
  const envFile = join(project, `${fault}.env`);
  const serve = spawn(join(project, 'node_modules/.bin/tack'), ['serve', '--fault', fault, '--env-out', envFile], { cwd: project, env: npxEnv });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    serve.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(READY_PREFIX)) resolve();
    });
    serve.on('exit', () => reject(new Error(`tack serve ended early: ${out}`)));
  });
  return {
    envFile,
    stop: async () => {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.on('exit', resolve));
    },
  };
}

/** `${{ ... }}` of a composite action, for the expressions action.yml uses. */
function expand(text: string, inputs: Record<string, string>, outputs: Record<string, string>, actionPath: string): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expr: string) => {
    if (expr === 'github.action_path') return actionPath;
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) return inputs[input[1]!] ?? '';
    const output = /^steps\.tack\.outputs\.([\w-]+)(?:\s*\|\|\s*(\S+))?$/.exec(expr);
    if (output) return outputs[output[1]!] || (output[2] ?? '');
    throw new Error(`unknown expression ${expr}`);
  });
}

function keyValues(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('the GitHub Action', () => {
  it("runs its steps from the package against a faulty target: step summary, one annotation per failed rule, outputs, tack's exit code", async () => {
    const { parse } = await import('yaml');
    const actionPath = join(dir, 'project/node_modules/@tack-conformance/tack');
    const action = parse(readFileSync(join(actionPath, 'action.yml'), 'utf8')) as {
      runs: { steps: { run?: string; uses?: string; if?: string; env?: Record<string, string> }[] };
    };
    const served = await servedFaulty('partner-secret-ignored');
    const secret = keyValues(served.envFile)['TACK_PARTNER_SECRET']!;
    const work = mkdtempSync(join(dir, 'github-'));
    const files = { GITHUB_ENV: 'env', GITHUB_OUTPUT: 'output', GITHUB_STEP_SUMMARY: 'summary' } as const;
    for (const name of Object.values(files)) writeFileSync(join(work, name), '');
    const inputs: Record<string, string> = {
      command: 'run',
      'env-file': served.envFile,
      args: '--only PARTNER-BAD-CREDENTIALS,PARTNER-HEADERS-REQUIRED,PARTNER-SECRET-EXACT',
      'require-all': 'false',
      'reports-dir': join(work, 'reports'),
      package: tarball,
      'upload-artifact': 'true',
      browser: '',
    };
    const lines: string[] = [];
    let lastExit = 0;
    try {
      for (const step of action.runs.steps) {
        if (step.uses) continue; // actions/upload-artifact: GitHub's own
        const outputs = keyValues(join(work, files.GITHUB_OUTPUT));
        const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, inputs, outputs, actionPath)]));
        const env = {
          ...npxEnv,
          ...keyValues(join(work, files.GITHUB_ENV)),
          ...stepEnv,
          RUNNER_TEMP: work,
          ...Object.fromEntries(Object.entries(files).map(([k, v]) => [k, join(work, v)])),
        };
        const child = spawn('bash', ['-e', '-c', expand(step.run!, inputs, outputs, actionPath)], { cwd: work, env });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        lastExit = (await new Promise<number | null>((resolve) => child.on('exit', resolve))) ?? -1;
        lines.push(...out.split('\n'));
      }
    } finally {
      await served.stop();
    }
    const outputs = keyValues(join(work, files.GITHUB_OUTPUT));
    expect(outputs['exit-code']).toBe('1');
    expect(lastExit).toBe(1);
    expect(existsSync(outputs['results']!)).toBe(true);
    // The step's own folder under reports-dir: its run folder, and nothing else.
    expect(outputs['results']).toBe(join(outputs['reports-dir']!, 'results.json'));
    expect(readdirSync(dirname(outputs['reports-dir']!))).toEqual([basename(outputs['reports-dir']!)]);
    expect(readFileSync(join(work, files.GITHUB_STEP_SUMMARY), 'utf8')).toMatch(/FAILED/);
    const annotations = lines.filter((l) => l.startsWith('::'));
    expect(annotations.map((a) => /^::(\w+) title=([A-Z-]+)/.exec(a)?.slice(1, 3).join(' '))).toEqual([
      'error PARTNER-BAD-CREDENTIALS',
      'error PARTNER-SECRET-EXACT',
    ]);
    expect(annotations.join('\n')).not.toContain(secret);
  });
});

/** A PATH of node, npm, npx and a shell only: a fresh job image without a browser (on this machine Chromium is in /usr/bin). */
function pathWithoutBrowser(): string {
  const bin = mkdtempSync(join(dir, 'bin-'));
  for (const tool of ['node', 'npm', 'npx', 'sh', 'bash']) {
    const found = execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    symlinkSync(realpathSync(found), join(bin, tool));
  }
  return bin;
}

describe('the GitLab template', () => {
  it('runs its script lines in a fresh folder without a browser: the skip names the fix; junit.xml is where the JUnit glob looks', async () => {
    const { parse } = await import('yaml');
    const template = parse(readFileSync(join(dir, 'project/node_modules/@tack-conformance/tack/ci/gitlab/tack.gitlab-ci.yml'), 'utf8')) as {
      '.tack': {
        variables: Record<string, string>;
        before_script: string[];
        script: string[];
        artifacts: { when: string; paths: string[]; reports: { junit: string } };
      };
    };
    const job = template['.tack'];
    expect(job.artifacts.when).toBe('always');
    // before_script installs Debian's Chromium, and says so (not run here: no apt in a test).
    expect(job.before_script.join('\n')).toMatch(/apt-get install -y .*chromium/);
    const served = await servedFaulty('revoke-answers-with-body');
    const projectDir = mkdtempSync(join(dir, 'gitlab-'));
    const variables: Record<string, string> = {
      ...job.variables,
      TACK_PACKAGE: tarball,
      TACK_ENV_FILE: served.envFile,
      TACK_ARGS: '--only SIGNIN-REVOKE,TOKEN-PAGE-MASKED',
    };
    const ciJobId = '4242';
    let out = '';
    let code: number | null;
    try {
      const empty = mkdtempSync(join(dir, 'no-browsers-'));
      const child = spawn('/bin/bash', ['-e', '-o', 'pipefail', '-c', job.script.join('\n')], {
        cwd: projectDir,
        env: { ...npxEnv, ...variables, CI_PROJECT_DIR: projectDir, CI_JOB_ID: ciJobId, PATH: pathWithoutBrowser(), PLAYWRIGHT_BROWSERS_PATH: empty },
      });
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    } finally {
      await served.stop();
    }
    expect(code, out).toBe(1);
    // The job's own folder holds exactly its run's folder; the artifacts keep that folder.
    const expand = (path: string) => path.replace('$TACK_REPORTS_DIR', variables.TACK_REPORTS_DIR ?? '').replace('$CI_JOB_ID', ciJobId);
    const pattern = expand(job.artifacts.reports.junit);
    const folder = pattern.slice(0, pattern.indexOf('/*/'));
    expect(job.artifacts.paths.map(expand)).toEqual([`${folder}/`]);
    const runs = readdirSync(join(projectDir, folder));
    expect(runs).toHaveLength(1);
    expect(readFileSync(join(projectDir, pattern.replace('*', runs[0]!)), 'utf8')).toContain('SIGNIN-REVOKE');
    expect(out).toMatch(
      /– TOKEN-PAGE-MASKED \[MUST\] skipped: needs a browser: no Chromium, Chrome or Edge found .*`apt-get install -y chromium`.*TACK_BROWSER/,
    );
  });
});
