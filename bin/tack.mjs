#!/usr/bin/env -S node --
// Entry point of the `tack` command: TypeScript sources run through tsx, no build step.
// The `--` of the line above ends Node's own options: Node 20 would otherwise read `--env-file`
// after the script name itself and stop with its own message (exit 9) before tack could say more.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
