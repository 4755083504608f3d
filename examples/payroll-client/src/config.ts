/**
 * The client's settings, from the environment. A partner's real program reads its own names; under
 * `tack client` these are the PAYROLL_* variables of the client-under-test contract.
 */
import { configurationError } from './errors.js';
import { protect } from './log.js';

export type Credentials =
  | { readonly kind: 'personal-token'; readonly tokenFile: string }
  | {
      readonly kind: 'partner-key';
      readonly clientId: string;
      readonly secret: string;
      /** The two header names the key is sent in: client id, then secret. */
      readonly headers: readonly [string, string];
      /** The user of the tenant to act for. */
      readonly userEmail: string;
    };

export interface Config {
  /** The tenant host, e.g. https://acme.example.com. */
  readonly baseUrl: string;
  /** The sign-in server including its realm path. */
  readonly identityUrl: string;
  readonly credentials: Credentials;
}

export function readConfig(env: NodeJS.ProcessEnv): Config {
  const need = (name: string): string => {
    const value = env[name];
    if (value === undefined || value === '') throw configurationError(`${name} is not set`);
    return value;
  };
  const baseUrl = need('PAYROLL_BASE_URL').replace(/\/+$/, '');
  const identityUrl = need('PAYROLL_IDENTITY_URL').replace(/\/+$/, '');
  if (env.PAYROLL_API_TOKEN_FILE !== undefined) {
    return { baseUrl, identityUrl, credentials: { kind: 'personal-token', tokenFile: need('PAYROLL_API_TOKEN_FILE') } };
  }
  const secret = need('PAYROLL_PARTNER_SECRET');
  protect(secret);
  const headers = need('PAYROLL_PARTNER_HEADERS')
    .split(',')
    .map((h) => h.trim());
  if (headers.length !== 2 || headers.some((h) => h === '')) throw configurationError('PAYROLL_PARTNER_HEADERS must name two headers, comma-separated');
  const clientId = need('PAYROLL_PARTNER_CLIENT_ID');
  const userEmail = need('PAYROLL_USER_EMAIL');
  return { baseUrl, identityUrl, credentials: { kind: 'partner-key', clientId, secret, headers: [headers[0]!, headers[1]!], userEmail } };
}
