/**
 * The target configuration: the `TACK_*` variables of docs/contracts/target-config.md (and of
 * token-page.md), validated with zod. Every message names the variable and says how to fix it.
 *
 * Five kinds of names are known (`VARIABLES`): those that point tack at a target (they need
 * TACK_BASE_URL: without it tack would silently check its built-in server instead), those that tune
 * a run (allowed against the built-in server too), one that only the exported Artillery processor
 * reads (it reads the others through this schema too), and, ignored here, shell variables that tack's
 * printed curl commands read and the variables of the GitLab template (ci/gitlab). Any other `TACK_*` name is a configuration error with a "did you
 * mean": a misspelt variable must never turn into a smaller run that passes.
 */
import { domainToASCII } from 'node:url';
import { z } from 'zod';

type VariableKind = 'target' | 'tuning' | 'artillery' | 'shell' | 'ci';

/** Every `TACK_*` name tack knows, and what it is for. */
export const VARIABLES: Readonly<Record<string, { readonly kind: VariableKind; readonly meaning: string }>> = {
  TACK_BASE_URL: { kind: 'target', meaning: "tenant A's host" },
  TACK_IDENTITY_URL: { kind: 'target', meaning: 'the sign-in server, with its realm path' },
  TACK_PARTNER_CLIENT_ID: { kind: 'target', meaning: "tenant A's partner client id" },
  TACK_PARTNER_SECRET: { kind: 'target', meaning: "tenant A's partner secret" },
  TACK_OTHER_BASE_URL: { kind: 'target', meaning: "tenant B's host" },
  TACK_OTHER_PARTNER_CLIENT_ID: { kind: 'target', meaning: "tenant B's partner client id" },
  TACK_OTHER_PARTNER_SECRET: { kind: 'target', meaning: "tenant B's partner secret" },
  TACK_HOOK_URL: { kind: 'target', meaning: "the target's test hook" },
  TACK_HOOK_TOKEN: { kind: 'target', meaning: 'the test hook token' },
  TACK_USER_EMAIL: { kind: 'target', meaning: 'a user of tenant A who signs in directly and reads at least one business' },
  TACK_API_TOKEN_FILE: { kind: 'target', meaning: "the file holding that user's personal API token" },
  TACK_USER_PASSWORD: { kind: 'target', meaning: "that user's password (token page)" },
  TACK_WEB_URL: { kind: 'target', meaning: "origin of tenant A's web interface (token page)" },
  TACK_PARTNER_HEADERS: { kind: 'tuning', meaning: 'the two partner header names' },
  TACK_CLIENT_ID: { kind: 'tuning', meaning: 'the sign-in client id' },
  TACK_PARTNER_ACCESS_TOKEN_FIELD: { kind: 'tuning', meaning: 'where the partner token answer keeps the access token' },
  TACK_PARTNER_REFRESH_TOKEN_FIELD: { kind: 'tuning', meaning: 'where the partner token answer keeps the refresh token' },
  TACK_RESET_URL_FIELD: { kind: 'tuning', meaning: 'where the reset-password answer keeps the action URL' },
  TACK_PAGE_INDEX_PARAM: { kind: 'tuning', meaning: 'the page-index query parameter of business search' },
  TACK_PAGE_SIZE_PARAM: { kind: 'tuning', meaning: 'the page-size query parameter of business search' },
  TACK_INSECURE_TLS: { kind: 'tuning', meaning: 'accept self-signed certificates' },
  TACK_CLOCK_TOLERANCE_S: { kind: 'tuning', meaning: 'tolerance around the 30- and 90-day limits' },
  TACK_ACCESS_TOLERANCE_S: { kind: 'tuning', meaning: 'tolerance around the 300-second access-token lifetime' },
  TACK_REQUEST_TIMEOUT_MS: { kind: 'tuning', meaning: 'time limit of one request' },
  TACK_RUN_DEADLINE_S: { kind: 'tuning', meaning: 'time limit of a whole run' },
  TACK_UI_SELECTORS: { kind: 'tuning', meaning: 'locators of the token page' },
  TACK_NO_WRONG_PASSWORD: {
    kind: 'tuning',
    meaning: 'type no deliberate wrong password for TACK_USER_EMAIL at re-authentication (that part of TOKEN-PAGE-REAUTH is then not checked)',
  },
  TACK_BROWSER: {
    kind: 'tuning',
    meaning: "a Chromium, Chrome or Edge executable; default: Playwright's own, else one on the PATH or where Chrome and Edge install",
  },
  TACK_LOAD_TOKEN_POOL: { kind: 'tuning', meaning: 'API tokens of a hookless load run' },
  TACK_JOURNAL_DIR: { kind: 'tuning', meaning: 'where run journals list the API tokens tack generated until revoked' },
  TACK_ALLOW_REMOTE: { kind: 'artillery', meaning: 'let the exported Artillery processor load a target that is not on its machine (1)' },
  TACK_API_TOKEN: { kind: 'shell', meaning: "read by tack's printed curl commands" },
  TACK_ACCESS_TOKEN: { kind: 'shell', meaning: "read by tack's printed curl commands" },
  TACK_REFRESH_TOKEN: { kind: 'shell', meaning: "read by tack's printed curl commands" },
  TACK_SECRET: { kind: 'shell', meaning: "read by tack's printed curl commands" },
  TACK_WRONG_SECRET: { kind: 'shell', meaning: "read by tack's printed curl commands" },
  TACK_CREDENTIAL: { kind: 'shell', meaning: "read by tack's printed curl commands" },
  TACK_PACKAGE: { kind: 'ci', meaning: 'the tack package the GitLab template installs' },
  TACK_ENV_FILE: { kind: 'ci', meaning: 'the env file the GitLab template passes as --env-file' },
  TACK_ARGS: { kind: 'ci', meaning: 'further arguments the GitLab template passes to tack run' },
  TACK_REPORTS_DIR: { kind: 'ci', meaning: 'where the GitLab template has tack write its reports' },
  TACK_INSTALL_BROWSER: {
    kind: 'ci',
    meaning: "whether the GitLab template installs Debian's Chromium for the token page (true, the default; false on an image with a browser)",
  },
};

/** Largest day-scale tolerance: a 30- or 90-day limit off by a day must always fail. */
export const MAX_CLOCK_TOLERANCE_S = 21_600;
/** Largest access-token tolerance: 5 % of 300 s, so a lifetime off by more always fails. */
export const MAX_ACCESS_TOLERANCE_S = 15;

/**
 * An http(s) URL written `scheme://host[:port][/path]`, that parses to exactly that host and port.
 * URL parsing repairs much (`http:8080//host` becomes host 0.0.31.144, `http://0x7f.1` 127.0.0.1):
 * a URL that does not mean what it says must never send a request somewhere else.
 */
const WRITTEN = /^(https?):\/\/(\[[0-9A-Fa-f:.]+\]|[^/?#@\s:[\]]+)(?::(\d{1,5}))?(\/[^?#\s]*)?$/;

/** A URL as an error may show it: no query or fragment (a key may sit there, as in `?code=`), quoted. */
function shownUrl(value: string): string {
  return JSON.stringify(value.replace(/[?#][\s\S]*$/, '?…'));
}

function urlProblem(name: string, example: string, value: string): string | undefined {
  const written = WRITTEN.exec(value);
  if (!written) {
    return /@/.test(value) && /^https?:\/\//.test(value)
      ? `${name} must not carry a user name or password: URLs are printed in every report; credentials go in the TACK_*_SECRET / TACK_*_TOKEN variables`
      : `${name} must be written scheme://host[:port][/path] with scheme http or https (no query, no fragment), e.g. ${example}; got ${shownUrl(value)}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return `${name} is not a valid URL: ${shownUrl(value)}; e.g. ${example}`;
  }
  const host = written[2]!.toLowerCase();
  const port = written[3] === undefined ? '' : String(Number(written[3]));
  const defaultPort = written[1] === 'https' ? '443' : '80';
  const samePort = parsed.port === port || (parsed.port === '' && port === defaultPort);
  // A host written in Unicode parses to its punycode form; any other difference is a repair.
  const sameHost = parsed.hostname === host || (/[^\x00-\x7f]/.test(host) && parsed.hostname === domainToASCII(host));
  if (!sameHost || !samePort) {
    return (
      `${name} does not mean what it says: ${shownUrl(value)} parses to host ${parsed.hostname} port ${parsed.port || defaultPort}; ` +
      'write the host as a name or a plain dotted address'
    );
  }
  return undefined;
}

const httpUrl = (name: string, example: string) =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = urlProblem(name, example, v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((v) => v.replace(/\/+$/, ''));

const nonEmpty = (name: string) => z.string().min(1, `${name} is set but empty; give it a value or unset it`);

const seconds = (name: string, example: string, max: number, maxWhy: string, fallback: number) =>
  z.coerce
    .number({ message: `${name} must be a number of seconds, e.g. ${example}` })
    .int(`${name} must be a whole number of seconds`)
    .min(0, `${name} must be 0 or more`)
    .max(max, `${name} must be at most ${max}: ${maxWhy}`)
    .default(fallback);

const queryName = (name: string, fallback: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_.~-]+$/, `${name} must be a query parameter name (letters, digits, _ . ~ -)`)
    .default(fallback);

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const envSchema = z
  .object({
    TACK_BASE_URL: httpUrl('TACK_BASE_URL', 'https://acme.uat.example.com').optional(),
    TACK_IDENTITY_URL: httpUrl('TACK_IDENTITY_URL', 'https://id.uat.example.com/realms/payroll').optional(),
    TACK_PARTNER_CLIENT_ID: nonEmpty('TACK_PARTNER_CLIENT_ID').optional(),
    TACK_PARTNER_SECRET: nonEmpty('TACK_PARTNER_SECRET').optional(),
    TACK_PARTNER_HEADERS: z
      .string()
      .default('Tenant-Key-1,Tenant-Key-2')
      .transform((v) => v.split(',').map((s) => s.trim()))
      .refine(
        (names) => names.length === 2 && names.every((n) => headerName.test(n)) && names[0]!.toLowerCase() !== names[1]!.toLowerCase(),
        'TACK_PARTNER_HEADERS must be two different HTTP header names separated by a comma, e.g. Tenant-Key-1,Tenant-Key-2',
      )
      .transform((names) => [names[0]!, names[1]!] as const),
    TACK_OTHER_BASE_URL: httpUrl('TACK_OTHER_BASE_URL', 'https://globex.uat.example.com').optional(),
    TACK_OTHER_PARTNER_CLIENT_ID: nonEmpty('TACK_OTHER_PARTNER_CLIENT_ID').optional(),
    TACK_OTHER_PARTNER_SECRET: nonEmpty('TACK_OTHER_PARTNER_SECRET').optional(),
    TACK_CLIENT_ID: z.string().min(1, 'TACK_CLIENT_ID is empty; unset it to use payroll-portal').default('payroll-portal'),
    TACK_HOOK_URL: httpUrl('TACK_HOOK_URL', 'http://127.0.0.1:7070/__tack').optional(),
    TACK_HOOK_TOKEN: nonEmpty('TACK_HOOK_TOKEN').optional(),
    TACK_USER_EMAIL: z.string().trim().email('TACK_USER_EMAIL must be an e-mail address of a user of tenant A').optional(),
    TACK_API_TOKEN_FILE: nonEmpty('TACK_API_TOKEN_FILE').optional(),
    TACK_USER_PASSWORD: nonEmpty('TACK_USER_PASSWORD').optional(),
    TACK_WEB_URL: httpUrl('TACK_WEB_URL', 'https://acme.uat.example.com').optional(),
    TACK_UI_SELECTORS: nonEmpty('TACK_UI_SELECTORS').optional(),
    TACK_NO_WRONG_PASSWORD: z
      .enum(['0', '1', 'true', 'false', ''], {
        message: 'TACK_NO_WRONG_PASSWORD must be 1 (type no wrong password for TACK_USER_EMAIL at re-authentication) or 0',
      })
      .optional()
      .transform((v) => v === '1' || v === 'true'),
    TACK_BROWSER: nonEmpty('TACK_BROWSER').optional(),
    TACK_LOAD_TOKEN_POOL: nonEmpty('TACK_LOAD_TOKEN_POOL').optional(),
    TACK_JOURNAL_DIR: nonEmpty('TACK_JOURNAL_DIR').optional(),
    TACK_PARTNER_ACCESS_TOKEN_FIELD: nonEmpty('TACK_PARTNER_ACCESS_TOKEN_FIELD').optional(),
    TACK_PARTNER_REFRESH_TOKEN_FIELD: nonEmpty('TACK_PARTNER_REFRESH_TOKEN_FIELD').optional(),
    TACK_RESET_URL_FIELD: nonEmpty('TACK_RESET_URL_FIELD').optional(),
    TACK_PAGE_INDEX_PARAM: queryName('TACK_PAGE_INDEX_PARAM', 'pageIndex'),
    TACK_PAGE_SIZE_PARAM: queryName('TACK_PAGE_SIZE_PARAM', 'pageSize'),
    TACK_INSECURE_TLS: z
      .enum(['0', '1', 'true', 'false', ''], { message: 'TACK_INSECURE_TLS must be 1 (accept self-signed certificates) or 0' })
      .optional()
      .transform((v) => v === '1' || v === 'true'),
    TACK_ALLOW_REMOTE: z
      .enum(['0', '1', 'true', 'false', ''], { message: 'TACK_ALLOW_REMOTE must be 1 (the Artillery processor may load a target off its machine) or 0' })
      .optional()
      .transform((v) => v === '1' || v === 'true'),
    TACK_CLOCK_TOLERANCE_S: seconds(
      'TACK_CLOCK_TOLERANCE_S',
      '5 (Keycloak-style grace: 180)',
      MAX_CLOCK_TOLERANCE_S,
      'the 30- and 90-day limits are judged at ± this, and a limit off by a day must still fail',
      5,
    ),
    TACK_ACCESS_TOLERANCE_S: seconds(
      'TACK_ACCESS_TOLERANCE_S',
      '5',
      MAX_ACCESS_TOLERANCE_S,
      'the 300-second access-token lifetime is judged at ± this, and a lifetime off by more than 5 % must still fail',
      5,
    ),
    TACK_REQUEST_TIMEOUT_MS: z.coerce
      .number({ message: 'TACK_REQUEST_TIMEOUT_MS must be a number of milliseconds, e.g. 10000' })
      .int()
      .min(100, 'TACK_REQUEST_TIMEOUT_MS must be at least 100')
      .default(10_000),
    TACK_RUN_DEADLINE_S: z.coerce
      .number({ message: 'TACK_RUN_DEADLINE_S must be a number of seconds, e.g. 600' })
      .int()
      .min(1, 'TACK_RUN_DEADLINE_S must be at least 1')
      .default(600),
  })
  .superRefine((env, ctx) => {
    const pairs: [keyof typeof env, keyof typeof env][] = [
      ['TACK_PARTNER_CLIENT_ID', 'TACK_PARTNER_SECRET'],
      ['TACK_OTHER_PARTNER_CLIENT_ID', 'TACK_OTHER_PARTNER_SECRET'],
      ['TACK_HOOK_URL', 'TACK_HOOK_TOKEN'],
    ];
    for (const [a, b] of pairs) {
      if ((env[a] === undefined) !== (env[b] === undefined)) {
        const missing = env[a] === undefined ? a : b;
        const present = missing === a ? b : a;
        ctx.addIssue({ code: 'custom', path: [missing], message: `${missing} is missing: it goes with ${present}; set both or neither` });
      }
    }
    if (env.TACK_BASE_URL !== undefined && env.TACK_IDENTITY_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['TACK_IDENTITY_URL'],
        message: 'TACK_IDENTITY_URL is missing: a remote target needs its sign-in server, e.g. https://id.uat.example.com/realms/payroll',
      });
    }
    const endpoint = /\/protocol\/openid-connect(\/[a-z-]*)?$/.exec(env.TACK_IDENTITY_URL ?? '');
    if (endpoint) {
      ctx.addIssue({
        code: 'custom',
        path: ['TACK_IDENTITY_URL'],
        message:
          `TACK_IDENTITY_URL ends with ${endpoint[0]}: it is the sign-in server with its realm path, the part before ` +
          `/protocol/openid-connect, e.g. ${env.TACK_IDENTITY_URL!.slice(0, endpoint.index)}`,
      });
    }
    if (env.TACK_BASE_URL === undefined) {
      const set = Object.entries(VARIABLES)
        .filter(([name, v]) => v.kind === 'target' && name !== 'TACK_BASE_URL' && env[name as keyof typeof env] !== undefined)
        .map(([name]) => name);
      if (set.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['TACK_BASE_URL'],
          message:
            `TACK_BASE_URL is missing but ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set: ` +
            `set TACK_BASE_URL to tenant A's host (is it misspelt?), or unset ${set.length === 1 ? 'it' : 'them'} to check the built-in reference server`,
        });
      }
    }
    if (env.TACK_OTHER_PARTNER_CLIENT_ID !== undefined && env.TACK_OTHER_BASE_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['TACK_OTHER_BASE_URL'], message: "TACK_OTHER_BASE_URL is missing: the other partner key needs tenant B's host" });
    }
    for (const needsUser of ['TACK_API_TOKEN_FILE', 'TACK_USER_PASSWORD'] as const) {
      if (env[needsUser] !== undefined && env.TACK_USER_EMAIL === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['TACK_USER_EMAIL'],
          message: `TACK_USER_EMAIL is missing: ${needsUser} belongs to a user, whose e-mail TACK_USER_EMAIL names`,
        });
      }
    }
  });

export type TackEnv = z.output<typeof envSchema>;
