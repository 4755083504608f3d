/**
 * Reads the target configuration: `--env-file` (dotenv syntax) first, then the process
 * environment, which nothing overrides. Validation errors name the variable and the fix.
 */
import { readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { envSchema, type TackEnv } from '../../config/schema.js';
import { TackError } from './errors.js';
import type { TargetConfig } from './types.js';

/** Only `TACK_*` variables are read; everything else in the environment is ignored. */
export function collectEnv(options: { envFile?: string | undefined; env?: NodeJS.ProcessEnv }): Record<string, string> {
  const fromFile: Record<string, string> = {};
  if (options.envFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.envFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new TackError('TACK_ERR_ENV_FILE', `--env-file ${options.envFile} could not be read (${code}); check the path`);
    }
    Object.assign(fromFile, parseDotenv(text));
  }
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries(fromFile)) if (k.startsWith('TACK_')) merged[k] = v;
  for (const [k, v] of Object.entries(options.env ?? process.env)) if (k.startsWith('TACK_') && v !== undefined) merged[k] = v;
  return merged;
}

export function validateEnv(raw: Record<string, string>): TackEnv {
  const parsed = envSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? 'configuration');
    return issue.message.startsWith(variable) ? `- ${issue.message}` : `- ${variable}: ${issue.message}`;
  });
  throw new TackError('TACK_ERR_CONFIG', `the configuration is not valid:\n${[...new Set(lines)].join('\n')}`);
}

export function tenantOf(url: string): string {
  const host = new URL(url).hostname;
  return host.split('.')[0] ?? host;
}

/** Turns validated variables into the target tack talks to. `TACK_BASE_URL` must be set. */
export function resolveTarget(env: TackEnv, builtIn: boolean): TargetConfig {
  if (env.TACK_BASE_URL === undefined || env.TACK_IDENTITY_URL === undefined) {
    throw new TackError('TACK_ERR_CONFIG', 'TACK_BASE_URL and TACK_IDENTITY_URL are needed for a remote target');
  }
  return {
    baseUrl: env.TACK_BASE_URL,
    otherBaseUrl: env.TACK_OTHER_BASE_URL,
    identityUrl: env.TACK_IDENTITY_URL,
    tenant: tenantOf(env.TACK_BASE_URL),
    otherTenant: env.TACK_OTHER_BASE_URL === undefined ? undefined : tenantOf(env.TACK_OTHER_BASE_URL),
    clientId: env.TACK_CLIENT_ID,
    partnerHeaders: env.TACK_PARTNER_HEADERS,
    partner:
      env.TACK_PARTNER_CLIENT_ID !== undefined && env.TACK_PARTNER_SECRET !== undefined
        ? { clientId: env.TACK_PARTNER_CLIENT_ID, secret: env.TACK_PARTNER_SECRET }
        : undefined,
    otherPartner:
      env.TACK_OTHER_PARTNER_CLIENT_ID !== undefined && env.TACK_OTHER_PARTNER_SECRET !== undefined
        ? { clientId: env.TACK_OTHER_PARTNER_CLIENT_ID, secret: env.TACK_OTHER_PARTNER_SECRET }
        : undefined,
    hook: env.TACK_HOOK_URL !== undefined && env.TACK_HOOK_TOKEN !== undefined ? { url: env.TACK_HOOK_URL, token: env.TACK_HOOK_TOKEN } : undefined,
    hookless:
      env.TACK_USER_EMAIL !== undefined && env.TACK_API_TOKEN_FILE !== undefined
        ? { userEmail: env.TACK_USER_EMAIL, tokenFile: env.TACK_API_TOKEN_FILE }
        : undefined,
    fields: {
      partnerAccessToken: env.TACK_PARTNER_ACCESS_TOKEN_FIELD,
      partnerRefreshToken: env.TACK_PARTNER_REFRESH_TOKEN_FIELD,
      resetUrl: env.TACK_RESET_URL_FIELD,
    },
    insecureTls: env.TACK_INSECURE_TLS,
    toleranceS: env.TACK_CLOCK_TOLERANCE_S,
    accessToleranceS: env.TACK_ACCESS_TOLERANCE_S,
    requestTimeoutMs: env.TACK_REQUEST_TIMEOUT_MS,
    runDeadlineS: env.TACK_RUN_DEADLINE_S,
    builtIn,
  };
}
