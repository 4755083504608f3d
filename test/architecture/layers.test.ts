/**
 * The map of the house (docs/architecture.md), held: every import of tack's own code, read with the
 * TypeScript compiler's import scanner (type imports and `import()` types included), goes from a
 * layer to one it may use, the test areas do not import each other, and there is no import cycle
 * between files, nor between folders (a folder and its own subfolders count as one).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sources } from '../helpers/sources.js';

interface Layer {
  readonly name: string;
  /** Folders (ending in /) and files of the layer. */
  readonly paths: readonly string[];
  /** The layers it may import, besides its own. */
  readonly may: readonly string[];
  /** Each folder of the layer is an area of its own: areas import none of each other's files. */
  readonly areas?: boolean;
}

const CHECKING = ['foundation', 'harness', 'checks', 'runner', 'steps'];

/** Lowest first. */
const LAYERS: readonly Layer[] = [
  { name: 'foundation', paths: ['src/rules/', 'src/spec.ts', 'src/text/', 'src/version.ts', 'config/', 'fixtures/'], may: [] },
  { name: 'harness', paths: ['src/harness/'], may: ['foundation'] },
  { name: 'checks', paths: ['src/checks/'], may: ['foundation', 'harness'] },
  { name: 'runner', paths: ['src/runner/'], may: ['foundation', 'harness', 'checks'] },
  { name: 'steps', paths: ['src/steps/'], may: ['foundation', 'harness', 'checks', 'runner'] },
  {
    name: 'tests',
    paths: ['suites/partner-key/', 'suites/sign-in/', 'suites/api/', 'suites/token-page/', 'suites/run-wide/', 'scenarios/lifecycle/'],
    may: CHECKING,
    areas: true,
  },
  { name: 'client judges', paths: ['suites/client/'], may: ['foundation', 'checks', 'runner'] },
  { name: 'list', paths: ['suites/index.ts'], may: ['tests', 'runner'] },
  { name: 'reference', paths: ['src/reference/'], may: ['foundation'] },
  { name: 'reporters', paths: ['src/reporters/'], may: ['foundation', 'harness', 'runner'] },
  { name: 'doctor', paths: ['src/doctor/'], may: ['foundation', 'harness', 'runner'] },
  { name: 'client runner', paths: ['src/client/'], may: ['foundation', 'harness', 'checks', 'runner', 'client judges', 'reference', 'reporters'] },
  { name: 'load', paths: ['src/load/', 'load-profiles/'], may: ['foundation', 'harness', 'checks'] },
  {
    name: 'cli',
    paths: ['src/cli/'],
    may: ['foundation', 'harness', 'runner', 'list', 'client judges', 'reference', 'reporters', 'doctor', 'client runner', 'load'],
  },
];

/**
 * Cycles known and left to their owner, each with why: an entry that no longer matches is harmless
 * (remove it).
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

const FOLDERS = ['src', 'suites', 'scenarios', 'load-profiles', 'fixtures', 'config'];

/** The sub-folders of src/load/, lowest first (docs/architecture.md): each imports only those before it. */
const LOAD_FOLDERS = ['engine', 'chains', 'results', 'outputs', 'capacity', 'report', 'artillery'];

function layerOf(file: string): { layer: Layer; area: string } | undefined {
  for (const layer of LAYERS) {
    const path = layer.paths.find((p) => file === p || (p.endsWith('/') && file.startsWith(p)));
    if (path !== undefined) return { layer, area: path };
  }
  return undefined;
}

/** Every import of one of tack's own files by another, as repository paths. */
function importGraph(): Map<string, Set<string>> {
  const files = FOLDERS.flatMap((folder) => sources(join(ROOT, folder))).filter((f) => !f.endsWith('.d.ts'));
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const imports = new Set<string>();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName).replace(/\.js$/, '.ts');
      if (known.has(target)) imports.add(relative(ROOT, target));
    }
    graph.set(relative(ROOT, file), imports);
  }
  return graph;
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const isKnown = (cycle: readonly string[]) => KNOWN_CYCLES.some((known) => known.length === cycle.length && known.every((f) => cycle.includes(f)));

describe('the layers', () => {
  const graph = importGraph();

  it('every file of src, suites, scenarios, fixtures and config is in a layer', () => {
    expect([...graph.keys()].filter((file) => layerOf(file) === undefined)).toEqual([]);
  });

  it('each layer imports only the layers below it that it may use; test areas none of each other', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = layerOf(file)!;
      for (const target of imports) {
        const to = layerOf(target)!;
        if (to.layer === from.layer) {
          if (from.layer.areas && to.area !== from.area) wrong.push(`${file} -> ${target} (test areas import none of each other)`);
        } else if (!from.layer.may.includes(to.layer.name)) wrong.push(`${file} -> ${target} (${from.layer.name} may not use ${to.layer.name})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no import cycle between files', () => {
    expect(cycles(graph).filter((cycle) => !isKnown(cycle))).toEqual([]);
  });

  it('no import cycle between folders (a folder and its subfolders count as one)', () => {
    const folders = new Map<string, Set<string>>();
    const within = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
    for (const [file, imports] of graph) {
      const from = dirname(file);
      for (const target of imports) {
        const to = dirname(target);
        if (within(from, to)) continue;
        folders.set(from, (folders.get(from) ?? new Set()).add(to));
      }
    }
    expect(cycles(folders)).toEqual([]);
  });

  it("src/load's sub-folders import only those before them, and each is in the order", () => {
    const folderOf = (file: string) => /^src\/load\/([^/]+)\//.exec(file)?.[1];
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = folderOf(file);
      if (from === undefined) continue;
      if (!LOAD_FOLDERS.includes(from)) wrong.push(`${file} (src/load/${from}/ is not in LOAD_FOLDERS)`);
      for (const target of imports) {
        const to = folderOf(target);
        if (to !== undefined && LOAD_FOLDERS.indexOf(to) > LOAD_FOLDERS.indexOf(from)) wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the test finds what it looks for: a layer imported from above, and a cycle', () => {
    expect(layerOf('src/checks/oauth.ts')?.layer.name).toBe('checks');
    expect(layerOf('suites/sign-in/model/model.ts')?.area).toBe('suites/sign-in/');
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
          ['d', new Set(['a'])],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(LAYERS.find((l) => l.name === 'checks')!.may).not.toContain('steps');
  });
});
