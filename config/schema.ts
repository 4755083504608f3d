/**
 * The target configuration: the `TACK_*` variables of shared/contracts/target-config.md, validated
 * with zod. Every message names the variable and says how to fix it.
 */
import { z } from 'zod';

const httpUrl = (name: string, example: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, `${name} must be an absolute http(s) URL, e.g. ${example}`)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.username === '' && u.password === '';
      } catch {
        return true; // reported above
      }
    }, `${name} must not carry a user name or password: URLs are printed in every report; credentials go in the TACK_*_SECRET / TACK_*_TOKEN variables`)
    .transform((v) => v.replace(/\/+$/, ''));

const nonEmpty = (name: string) => z.string().min(1, `${name} is set but empty; give it a value or unset it`);

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
    TACK_PARTNER_ACCESS_TOKEN_FIELD: nonEmpty('TACK_PARTNER_ACCESS_TOKEN_FIELD').optional(),
    TACK_PARTNER_REFRESH_TOKEN_FIELD: nonEmpty('TACK_PARTNER_REFRESH_TOKEN_FIELD').optional(),
    TACK_RESET_URL_FIELD: nonEmpty('TACK_RESET_URL_FIELD').optional(),
    TACK_INSECURE_TLS: z
      .enum(['0', '1', 'true', 'false', ''], { message: 'TACK_INSECURE_TLS must be 1 (accept self-signed certificates) or 0' })
      .optional()
      .transform((v) => v === '1' || v === 'true'),
    TACK_CLOCK_TOLERANCE_S: z.coerce
      .number({ message: 'TACK_CLOCK_TOLERANCE_S must be a number of seconds, e.g. 5 (Keycloak-style grace: 180)' })
      .int('TACK_CLOCK_TOLERANCE_S must be a whole number of seconds')
      .min(0, 'TACK_CLOCK_TOLERANCE_S must be 0 or more')
      .max(86_400, 'TACK_CLOCK_TOLERANCE_S must be under one day (86400)')
      .default(5),
    TACK_ACCESS_TOLERANCE_S: z.coerce
      .number({ message: 'TACK_ACCESS_TOLERANCE_S must be a number of seconds, e.g. 5 (the tolerance on the 300-second access-token lifetime)' })
      .int('TACK_ACCESS_TOLERANCE_S must be a whole number of seconds')
      .min(0, 'TACK_ACCESS_TOLERANCE_S must be 0 or more')
      .max(15, 'TACK_ACCESS_TOLERANCE_S must be at most 15 (5% of the 300-second access-token lifetime): a larger one would let a wrong lifetime pass')
      .default(5),
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
    if (env.TACK_BASE_URL === undefined) {
      for (const k of ['TACK_IDENTITY_URL', 'TACK_OTHER_BASE_URL', 'TACK_HOOK_URL'] as const) {
        if (env[k] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['TACK_BASE_URL'],
            message: `TACK_BASE_URL is missing but ${k} is set: set TACK_BASE_URL to tenant A's host, or unset ${k} to use the built-in reference server`,
          });
        }
      }
    }
    if (env.TACK_OTHER_PARTNER_CLIENT_ID !== undefined && env.TACK_OTHER_BASE_URL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['TACK_OTHER_BASE_URL'], message: 'TACK_OTHER_BASE_URL is missing: the other partner key needs tenant B\'s host' });
    }
    if (env.TACK_API_TOKEN_FILE !== undefined && env.TACK_USER_EMAIL === undefined) {
      ctx.addIssue({ code: 'custom', path: ['TACK_USER_EMAIL'], message: 'TACK_USER_EMAIL is missing: hookless mode needs the e-mail of the user whose token is in TACK_API_TOKEN_FILE' });
    }
  });

export type TackEnv = z.output<typeof envSchema>;
