/**
 * Reads the target configuration: `--env-file` (dotenv syntax) first, then the process
 * environment, which nothing overrides. Validation errors name the variable and the fix.
 */
import { readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { closest, distance } from 'fastest-levenshtein';
import { envSchema, type TackEnv, VARIABLES } from '../../config/schema.js';
import { TackError } from './errors.js';
import { type TargetConfig, UI_SELECTOR_KEYS, type UiSelectorKey } from './target-config.js';

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

/** `TACK_*` names tack does not know, each with the closest known name when one is near. */
function unknownVariables(raw: Record<string, string>): string[] {
  const known = Object.keys(VARIABLES);
  return Object.keys(raw)
    .filter((name) => !(name in VARIABLES))
    .map((name) => {
      const near = closest(name, known);
      const hint = distance(name, near) <= Math.max(2, Math.floor(name.length / 5)) ? `; did you mean ${near}?` : '';
      return `${name} is not a tack variable${hint} (tack reads only the TACK_* names of docs/configuration.md; unset it or fix its name)`;
    });
}

export function validateEnv(raw: Record<string, string>): TackEnv {
  const unknown = unknownVariables(raw);
  const parsed = envSchema.safeParse(raw);
  if (parsed.success && unknown.length === 0) return parsed.data;
  const lines = (parsed.success ? [] : parsed.error.issues).map((issue) => {
    const variable = String(issue.path[0] ?? 'configuration');
    return issue.message.startsWith(variable) ? `- ${issue.message}` : `- ${variable}: ${issue.message}`;
  });
  lines.unshift(...unknown.map((line) => `- ${line}`));
  throw new TackError('TACK_ERR_CONFIG', `the configuration is not valid:\n${[...new Set(lines)].join('\n')}`);
}

function tenantOf(url: string): string {
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
    userEmail: env.TACK_USER_EMAIL,
    userPassword: env.TACK_USER_PASSWORD,
    noWrongPassword: env.TACK_NO_WRONG_PASSWORD,
    webUrl: env.TACK_WEB_URL ?? env.TACK_BASE_URL,
    uiSelectors: env.TACK_UI_SELECTORS === undefined ? {} : readUiSelectors(env.TACK_UI_SELECTORS),
    browser: env.TACK_BROWSER,
    journalDir: env.TACK_JOURNAL_DIR,
    fields: {
      partnerAccessToken: env.TACK_PARTNER_ACCESS_TOKEN_FIELD,
      partnerRefreshToken: env.TACK_PARTNER_REFRESH_TOKEN_FIELD,
      resetUrl: env.TACK_RESET_URL_FIELD,
    },
    insecureTls: env.TACK_INSECURE_TLS,
    toleranceS: env.TACK_CLOCK_TOLERANCE_S,
    accessToleranceS: env.TACK_ACCESS_TOLERANCE_S,
    paging: { pageIndexParam: env.TACK_PAGE_INDEX_PARAM, pageSizeParam: env.TACK_PAGE_SIZE_PARAM },
    requestTimeoutMs: env.TACK_REQUEST_TIMEOUT_MS,
    runDeadlineS: env.TACK_RUN_DEADLINE_S,
    builtIn,
  };
}

/**
 * TACK_UI_SELECTORS: a JSON object whose keys are token-page.md's locator names and whose values are
 * Playwright selectors (`#login`, `text=Copy`, `role=button[name=/log in/i]`, `[data-qa=token]`).
 * An unknown key is an error: a misspelt key would silently keep the default.
 */
export function readUiSelectors(path: string): Partial<Record<UiSelectorKey, string>> {
  const fix = `TACK_UI_SELECTORS must name a JSON file like {"submit": "role=button[name=/log in/i]"} with the keys ${UI_SELECTOR_KEYS.join(', ')}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? 'not JSON';
    throw new TackError('TACK_ERR_CONFIG', `the configuration is not valid:\n- TACK_UI_SELECTORS: ${path} could not be read (${why}); ${fix}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new TackError('TACK_ERR_CONFIG', `the configuration is not valid:\n- ${fix}`);
  }
  const out: Partial<Record<UiSelectorKey, string>> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    const known = (UI_SELECTOR_KEYS as readonly string[]).includes(key);
    if (!known) problems.push(`- TACK_UI_SELECTORS: unknown key "${key}" in ${path} (keys: ${UI_SELECTOR_KEYS.join(', ')})`);
    else if (typeof value !== 'string' || value.trim() === '') problems.push(`- TACK_UI_SELECTORS: "${key}" must be a non-empty Playwright selector string`);
    else out[key as UiSelectorKey] = value;
  }
  if (problems.length > 0) throw new TackError('TACK_ERR_CONFIG', `the configuration is not valid:\n${problems.join('\n')}`);
  return out;
}
