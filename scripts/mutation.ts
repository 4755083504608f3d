/**
 * `npm run mutation`: Stryker mutates the code that decides verdicts (the `mutate` list of
 * stryker.config.json, one entry a folder or a file) and runs the unit tests of
 * vitest.mutation.config.ts against each mutant; this prints the score of each entry, writes the
 * survivors to reports/mutation/survivors.md and exits 1 when an entry scores below 90%.
 *
 *   npm run mutation                       every entry (incremental: unchanged mutants are not run again)
 *   npm run mutation -- src/checks         the entries under that path only
 *   npm run mutation -- --report-only      scores the last report without running Stryker
 *
 * A mutant that no test can kill (equivalent) is marked where it is, with the reason:
 * `// Stryker disable next-line <mutator>: <reason>`. Stryker then reports it `Ignored`, outside the score.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const ROOT = new URL('../', import.meta.url);
const REPORT = 'reports/mutation/mutation.json';
const SURVIVORS = 'reports/mutation/survivors.md';
export const THRESHOLD = 90;

/** The part of Stryker's JSON report (mutation-testing-report-schema) read here. */
interface Mutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  readonly statusReason?: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number }; readonly end: { readonly line: number; readonly column: number } };
  readonly coveredBy?: readonly string[];
}
interface Report {
  readonly files: Record<string, { readonly source: string; readonly mutants: readonly Mutant[] }>;
  readonly testFiles?: Record<string, { readonly tests: readonly { readonly id: string; readonly name: string }[] }>;
}

export interface EntryScore {
  readonly entry: string;
  readonly killed: number;
  readonly survived: number;
  readonly ignored: number;
  /** Killed (or timed out) over killed plus survived (or not covered), as Stryker counts it; undefined when nothing was mutated. */
  readonly score: number | undefined;
}

const detected = (m: Mutant) => m.status === 'Killed' || m.status === 'Timeout';
const undetected = (m: Mutant) => m.status === 'Survived' || m.status === 'NoCoverage';

/** The folder or file a `mutate` glob names: `src/checks/**\/*.ts` is `src/checks`. */
export function entryOf(glob: string): string {
  return glob.replace(/\/\*\*.*$/, '').replace(/\/\*[^/]*$/, '');
}

/** The entry a reported file belongs to: the longest entry it is in. */
function entryFor(file: string, entries: readonly string[]): string | undefined {
  return entries.filter((e) => file === e || file.startsWith(`${e}/`)).sort((a, b) => b.length - a.length)[0];
}

export function scores(report: Report, entries: readonly string[]): EntryScore[] {
  const mutants = new Map<string, Mutant[]>(entries.map((e) => [e, []]));
  for (const [file, { mutants: found }] of Object.entries(report.files)) {
    const entry = entryFor(file, entries);
    if (entry !== undefined) mutants.get(entry)?.push(...found);
  }
  return entries.map((entry) => {
    const all = mutants.get(entry) ?? [];
    const killed = all.filter(detected).length;
    const survived = all.filter(undetected).length;
    const ignored = all.filter((m) => m.status === 'Ignored').length;
    const score = killed + survived === 0 ? undefined : (100 * killed) / (killed + survived);
    return { entry, killed, survived, ignored, score };
  });
}

/** The survivors, each with the code it changed, what it put instead and the tests that ran it. */
export function survivorsText(report: Report, entries: readonly string[]): string {
  const out = [
    '# Surviving mutants',
    '',
    'Each: where, the mutator, the code and what Stryker put instead, the unit tests that ran it and passed.',
    'Kill it with a test named for the problem it pins down, or mark it equivalent where it is:',
    '`// Stryker disable next-line <mutator>: <reason>`.',
    '',
  ];
  for (const entry of entries) {
    const files = Object.entries(report.files)
      .filter(([file]) => entryFor(file, entries) === entry)
      .sort(([a], [b]) => a.localeCompare(b));
    const lines: string[] = [];
    for (const [file, { source, mutants }] of files) {
      const sourceLines = source.split('\n');
      for (const m of mutants.filter(undetected).sort((a, b) => a.location.start.line - b.location.start.line)) {
        const { start, end } = m.location;
        const original =
          start.line === end.line
            ? (sourceLines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1)
            : `${(sourceLines[start.line - 1] ?? '').slice(start.column - 1)} …`;
        const ran = m.coveredBy ?? [];
        const tests =
          m.status === 'NoCoverage' ? 'no test reaches it' : ran.length > 2 ? `${ran.slice(0, 2).join('; ')} and ${ran.length - 2} more` : ran.join('; ');
        lines.push(
          `- ${file}:${start.line}:${start.column} ${m.mutatorName}: \`${oneLine(original)}\` → \`${oneLine(m.replacement ?? '')}\` (${tests || 'static'})`,
        );
      }
    }
    out.push(`## ${entry}`, '', ...(lines.length > 0 ? lines : ['None.']), '');
  }
  return out.join('\n');
}

/** The reports of the entries as one, the tests that ran a mutant by name (an entry never run adds nothing, and scores n/a). */
function merged(paths: readonly URL[]): Report {
  const files: Record<string, Report['files'][string]> = {};
  for (const path of paths.filter(existsSync)) {
    const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
    const names = new Map<string, string>();
    for (const file of Object.values(report.testFiles ?? {})) for (const t of file.tests) names.set(t.id, t.name);
    for (const [file, { source, mutants }] of Object.entries(report.files)) {
      files[file] = { source, mutants: mutants.map((m) => ({ ...m, coveredBy: (m.coveredBy ?? []).map((id) => names.get(id) ?? id) })) };
    }
  }
  return { files };
}

function oneLine(code: string): string {
  const flat = code.replace(/\s+/g, ' ').replace(/`/g, "'");
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

function main(args: readonly string[]): number {
  const config = JSON.parse(readFileSync(new URL('stryker.config.json', ROOT), 'utf8')) as { mutate: string[] };
  const only = args.filter((a) => !a.startsWith('--'));
  const globs = config.mutate.filter((g) => only.length === 0 || only.some((o) => entryOf(g) === o || entryOf(g).startsWith(`${o.replace(/\/$/, '')}/`)));
  if (globs.length === 0) {
    process.stderr.write(`mutation: nothing to mutate under ${only.join(', ')} (the entries: ${config.mutate.map(entryOf).join(', ')})\n`);
    return 2;
  }
  mkdirSync(new URL('reports/mutation/entries/', ROOT), { recursive: true });
  const entries = globs.map(entryOf);
  for (const [i, glob] of globs.entries()) {
    // One Stryker run an entry, each with its own incremental file and report: an entry is scored
    // again without running the others, and a run cut short keeps what the others found.
    const slug = entries[i]!.replace(/[^\w.-]+/g, '_');
    const saved = new URL(`reports/mutation/entries/${slug}.json`, ROOT);
    if (!args.includes('--report-only')) {
      const run = ['stryker', 'run', '--incremental', '--incrementalFile', `reports/mutation/entries/${slug}.incremental.json`, '--mutate', glob];
      const stryker = spawnSync('npx', run, { cwd: ROOT, stdio: 'inherit' });
      if (stryker.status !== 0) {
        process.stderr.write(`mutation: Stryker ended with ${stryker.status ?? stryker.signal} on ${entries[i]}\n`);
        return 2;
      }
      copyFileSync(new URL(REPORT, ROOT), saved);
    }
  }
  const report = merged(entries.map((e) => new URL(`reports/mutation/entries/${e.replace(/[^\w.-]+/g, '_')}.json`, ROOT)));
  const results = scores(report, entries);
  writeFileSync(new URL(SURVIVORS, ROOT), survivorsText(report, entries));
  const width = Math.max(...entries.map((e) => e.length));
  for (const r of results) {
    const score = r.score === undefined ? '  n/a' : `${r.score.toFixed(1).padStart(5)}%`;
    process.stdout.write(`${r.entry.padEnd(width)}  ${score}  ${r.killed} killed, ${r.survived} survived, ${r.ignored} marked equivalent\n`);
  }
  process.stdout.write(`survivors: ${relative(process.cwd(), new URL(SURVIVORS, ROOT).pathname) || SURVIVORS}\n`);
  const low = results.filter((r) => r.score === undefined || r.score < THRESHOLD);
  if (low.length > 0) {
    process.stderr.write(`mutation: below ${THRESHOLD}%: ${low.map((r) => r.entry).join(', ')}\n`);
    return 1;
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
