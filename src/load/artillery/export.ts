/**
 * `tack load export artillery PROFILE`: writes the Artillery script (script.ts) and the processor
 * it names, for runs beyond one machine on Artillery's own runners (`artillery run`, and unchanged
 * `artillery run-fargate` / `run-lambda --count N`).
 *
 * The processor is not a second copy of the profiles: it is bundled, at export time, from tack's own
 * modules (the profiles of load-profiles/, their conversations and wire.ts, and hooks.ts) into one
 * self-contained CommonJS file, as Artillery loads processors (esbuild; from the TypeScript sources
 * in a checkout, from the compiled JavaScript in the installed package). It reads the TACK_*
 * variables with tack's own schema (config/schema.ts, zod inlined) and sets chains up with tack's
 * own clients. What the bundle may hold is checked by test/load/artillery/hooks.test.ts: no package
 * loaded at run time, nothing that talks to a target (no undici, no harness HTTP client).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envSchema } from '../../../config/schema.js';
import { type ArtilleryExport, artilleryScript } from './script.js';
import { PROCESSOR_FILE } from './hooks.js';

/** The folder holding src/ and load-profiles/: the checkout, or the package's dist/. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Processor {
  readonly code: string;
  /** The source files bundled, relative to the root (forward slashes). */
  readonly inputs: readonly string[];
}

/** The processor: every profile of load-profiles/ with the hooks that run them, as one CommonJS file. */
export async function bundleProcessor(version: string): Promise<Processor> {
  const { build } = await import('esbuild');
  const entry = [
    "const { LOAD_PROFILES } = require('./load-profiles/index.js');",
    "const { artilleryHooks } = require('./src/load/artillery/hooks.js');",
    'module.exports = artilleryHooks(LOAD_PROFILES);',
  ].join('\n');
  const banner = [
    '// tack-processor.cjs: the functions the tack Artillery scripts name. Written by `tack load export artillery`',
    `// (tack ${version}), bundled from tack's own load profiles, so every answer is judged as \`tack load\` judges it.`,
    '// It reads the target and its secrets from the TACK_* variables at run time and never prints a token.',
  ].join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'tack-processor-entry.js', loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'utf8',
    legalComments: 'none',
    banner: { js: banner },
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => f !== 'tack-processor-entry.js');
  return { code: result.outputFiles[0]!.text, inputs };
}

/** Writes the script and the processor into `dir`; returns their paths. Without a timeout, the script's is TACK_REQUEST_TIMEOUT_MS's default. */
export async function writeArtilleryExport(
  o: Omit<ArtilleryExport, 'timeoutMs'> & { readonly timeoutMs: number | undefined },
  dir: string,
): Promise<{ script: string; processor: string }> {
  const script = artilleryScript({ ...o, timeoutMs: o.timeoutMs ?? envSchema.parse({}).TACK_REQUEST_TIMEOUT_MS });
  const processor = await bundleProcessor(o.version);
  mkdirSync(dir, { recursive: true });
  const scriptPath = join(dir, `${o.profile.name}.artillery.yml`);
  const processorPath = join(dir, PROCESSOR_FILE);
  writeFileSync(scriptPath, script);
  writeFileSync(processorPath, processor.code);
  return { script: scriptPath, processor: processorPath };
}
