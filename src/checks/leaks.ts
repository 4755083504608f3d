/**
 * Checks that a text holds none of a set of secrets: the client's output, a request's URL. The
 * secrets are compared in memory only; a finding names the kind of the secret and where it was
 * found, never its value.
 */
import { finding, type Finding } from './finding.js';

export interface KnownSecret {
  readonly value: string;
  /** How a report names it: `the partner secret`, `an access token`... */
  readonly kind: string;
}

/** The forms a secret can be written in: as it is, URL-encoded, form-encoded, JSON-escaped. */
export function formsOf(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)]);
  return [...forms].filter((form) => form !== '');
}

/** The first secret found in `text`, in any of its forms. */
export function findSecret(text: string, secrets: readonly KnownSecret[]): KnownSecret | undefined {
  return secrets.find((secret) => formsOf(secret.value).some((form) => text.includes(form)));
}

/** `text` (described by `where`) holds none of `secrets`. */
export function noSecretIn(text: string, secrets: readonly KnownSecret[], where: string): Finding {
  const found = findSecret(text, secrets);
  return finding(found === undefined, `no token or secret in ${where}`, found === undefined ? 'none' : `${found.kind} in ${where}`);
}
