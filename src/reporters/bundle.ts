/**
 * The certification bundle: one `.tar.gz` holding a run's reports, its transcript, the load
 * figures and a `manifest.json` with the SHA-256 sum and size of every other file in it.
 *
 * The sums prove integrity only: that no file changed since the bundle was made. They do not prove
 * who made it: anyone can rebuild a bundle with matching sums. (Sign the bundle file with your own
 * tooling if authorship matters.)
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create, list, type ReadEntry } from 'tar';
import { TackError } from '../harness/errors.js';

const MANIFEST_SCHEMA = 'tack-manifest/1';
const MANIFEST_FILE = 'manifest.json';
export const INTEGRITY_NOTE = 'SHA-256 sums show that these files are unchanged since the bundle was made; they do not show who made it.';

interface ManifestEntry {
  /** Path inside the bundle's top folder, `/`-separated. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface Manifest {
  readonly schema: typeof MANIFEST_SCHEMA;
  readonly note: typeof INTEGRITY_NOTE;
  readonly createdAt: string;
  /** Free metadata: tack version, run id, settings, verdicts. Never a secret. */
  readonly about: Record<string, unknown>;
  readonly files: readonly ManifestEntry[];
}

export interface BundleFile {
  /** Path inside the bundle's top folder. */
  readonly name: string;
  /** A file on disk to copy, or the text to write. */
  readonly source: { readonly path: string } | { readonly text: string };
}

/** Writes `out` (`.tar.gz`) with `files` under the folder `root`, and their manifest. */
export async function createBundle(out: string, root: string, files: readonly BundleFile[], about: Record<string, unknown>): Promise<Manifest> {
  const staging = mkdtempSync(join(tmpdir(), 'tack-bundle-'));
  try {
    const entries: ManifestEntry[] = [];
    for (const file of files) {
      if (file.name === MANIFEST_FILE || file.name.split('/').some((p) => p === '..' || p === '')) throw new Error(`bad bundle path ${file.name}`);
      const target = join(staging, root, ...file.name.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      if ('path' in file.source) copyFileSync(file.source.path, target);
      else writeFileSync(target, file.source.text);
      const bytes = readFileSync(target);
      entries.push({ path: file.name, sha256: sha256(bytes), bytes: bytes.length });
    }
    entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const manifest: Manifest = { schema: MANIFEST_SCHEMA, note: INTEGRITY_NOTE, createdAt: new Date().toISOString(), about, files: entries };
    writeFileSync(join(staging, root, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(dirname(out), { recursive: true });
    await create({ gzip: true, file: out, cwd: staging, portable: true }, [root]);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

interface Verification {
  readonly ok: boolean;
  readonly manifest: Manifest | undefined;
  /** One line per problem, each naming the file. */
  readonly problems: readonly string[];
  readonly checked: number;
}

/** Reads the bundle without extracting it and checks every file against the manifest. */
export async function verifyBundle(file: string): Promise<Verification> {
  const contents = new Map<string, Buffer>();
  const pending: Promise<void>[] = [];
  try {
    await list({
      file,
      onReadEntry: (entry: ReadEntry) => {
        if (entry.type !== 'File') {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        pending.push(
          new Promise<void>((resolve, reject) => {
            entry.on('data', (c: Buffer) => chunks.push(c));
            entry.on('end', () => {
              contents.set(entry.path, Buffer.concat(chunks));
              resolve();
            });
            entry.on('error', reject);
          }),
        );
      },
    });
    await Promise.all(pending);
  } catch (error) {
    throw new TackError('TACK_ERR_BUNDLE', `${file} is not a readable .tar.gz bundle (${error instanceof Error ? error.message : String(error)})`);
  }
  const manifestPaths = [...contents.keys()].filter((p) => p.split('/').length === 2 && p.endsWith(`/${MANIFEST_FILE}`));
  if (manifestPaths.length !== 1) {
    return {
      ok: false,
      manifest: undefined,
      problems: [`${MANIFEST_FILE}: ${manifestPaths.length === 0 ? 'missing' : 'more than one'} at the top of the bundle`],
      checked: 0,
    };
  }
  const root = manifestPaths[0]!.slice(0, -MANIFEST_FILE.length - 1);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(contents.get(manifestPaths[0]!)!.toString('utf8')) as Manifest;
    if (manifest.schema !== MANIFEST_SCHEMA || !Array.isArray(manifest.files)) throw new Error('not a tack manifest');
  } catch (error) {
    return { ok: false, manifest: undefined, problems: [`${MANIFEST_FILE}: ${error instanceof Error ? error.message : 'unreadable'}`], checked: 0 };
  }
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const entry of manifest.files) {
    listed.add(entry.path);
    const data = contents.get(`${root}/${entry.path}`);
    if (!data) problems.push(`${entry.path}: listed in the manifest but missing from the bundle`);
    else if (sha256(data) !== entry.sha256) problems.push(`${entry.path}: SHA-256 differs from the manifest (the file was changed)`);
    else if (data.length !== entry.bytes) problems.push(`${entry.path}: size differs from the manifest`);
  }
  for (const path of contents.keys()) {
    const inner = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
    if (inner !== MANIFEST_FILE && !listed.has(inner)) problems.push(`${inner}: in the bundle but not in the manifest`);
  }
  return { ok: problems.length === 0, manifest, problems, checked: manifest.files.length };
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
