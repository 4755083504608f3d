/** The example target profiles in config/profiles validate against the configuration schema. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectEnv, resolveTarget, validateEnv } from '../../src/harness/config.js';

const dir = join(import.meta.dirname, '..', '..', 'config', 'profiles');

describe('example target profiles', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.env.example')))('%s is a valid configuration', (file) => {
    const env = validateEnv(collectEnv({ envFile: join(dir, file), env: {} }));
    expect(resolveTarget(env, false).baseUrl).toMatch(/^https:\/\//);
  });
});
