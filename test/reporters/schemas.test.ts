/** The JSON Schemas shipped in schemas/ are the ones generated from the zod schemas tack validates with (npm run docs). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsonSchemaOf, SCHEMAS } from '../../scripts/schemas.js';

describe('schemas/', () => {
  it.each(Object.entries(SCHEMAS))('%s is current', (name, schema) => {
    const shipped = readFileSync(new URL(`../../schemas/${name}`, import.meta.url), 'utf8');
    expect(shipped, `schemas/${name} is out of date: run npm run docs`).toBe(jsonSchemaOf(schema));
  });
});
