/** `npm run docs`: writes the generated parts of the docs (the fault table, the variables table) and the JSON Schemas. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { withVariablesTable } from '../src/cli/variables-doc.js';
import { withFaultTable } from '../src/reference/fault-table.js';
import { jsonSchemaOf, SCHEMAS } from './schemas.js';

for (const [file, generate] of [
  ['../docs/reference-server.md', withFaultTable],
  ['../docs/configuration.md', withVariablesTable],
] as const) {
  const path = new URL(file, import.meta.url);
  writeFileSync(path, generate(readFileSync(path, 'utf8')));
  process.stdout.write(`${file.slice(3)}: written\n`);
}

mkdirSync(new URL('../schemas/', import.meta.url), { recursive: true });
for (const [name, schema] of Object.entries(SCHEMAS)) {
  writeFileSync(new URL(`../schemas/${name}`, import.meta.url), jsonSchemaOf(schema));
  process.stdout.write(`schemas/${name}: written\n`);
}
