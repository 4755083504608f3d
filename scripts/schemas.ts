/**
 * The JSON Schemas of what tack writes, generated from the zod schemas the code validates with:
 * schemas/results.schema.json (`tack-results/1`) and schemas/load-result.schema.json (`tack-load/1`).
 */
import { z } from 'zod';
import { loadResultSchema } from '../src/load/result.js';
import { resultsSchema } from '../src/reporters/results-schema.js';

export const SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'results.schema.json': resultsSchema,
  'load-result.schema.json': loadResultSchema,
};

export function jsonSchemaOf(schema: z.ZodType): string {
  return `${JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), null, 2)}\n`;
}
