/** `npm run docs`: writes the generated parts of the docs (the fault table of docs/reference-server.md). */
import { readFileSync, writeFileSync } from 'node:fs';
import { withFaultTable } from '../src/reference/fault-table.js';

const path = new URL('../docs/reference-server.md', import.meta.url);
writeFileSync(path, withFaultTable(readFileSync(path, 'utf8')));
process.stdout.write('docs/reference-server.md: fault table written\n');
