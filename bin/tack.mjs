#!/usr/bin/env node
// Entry point of the `tack` command: TypeScript sources run through tsx, no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
