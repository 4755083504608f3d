#!/usr/bin/env -S node --
// Entry point of the `tack` command. In a checkout the TypeScript sources run through tsx (no
// build step); in the installed package, which ships no sources, the compiled JavaScript runs.
// The `--` of the line above ends Node's own options: Node 20 would otherwise read `--env-file`
// after the script name itself and stop with its own message (exit 9) before tack could say more.
import { existsSync } from 'node:fs';

const sources = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import(new URL('../dist/src/cli/main.js', import.meta.url).href);
}
