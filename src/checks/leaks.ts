/**
 * Checks that a text holds none of a set of secrets: the client's output, a request's URL. The
 * secrets are compared in memory only; a finding names the kind of the secret and where it was
 * found, never its value. What counts as a secret's written form (encodings, a value run across
 * lines) is the redactor's one definition (`secretForms`, `secretTexts`): what the judge finds is
 * what the reports hide.
 */
import { secretForms, secretMembers, secretTexts, wholeDecodings } from '../harness/redactor.js';
import { finding, type Finding } from './finding.js';

export interface KnownSecret {
  readonly value: string;
  /** How a report names it: `the partner secret`, `an access token`... */
  readonly kind: string;
}

/** The first secret found in `text`, in any of its forms, also where it runs across lines. */
export function findSecret(text: string, secrets: readonly KnownSecret[]): KnownSecret | undefined {
  const texts = secretTexts(text);
  return secrets.find((secret) => secretForms(secret.value).some((form) => texts.some((t) => t.includes(form))));
}

/**
 * `value` (a parameter's whole value, already decoded once as its form, query or JSON is) is `secret`
 * in one of its written forms: not a longer value that merely holds it (`<token>.old`).
 */
export function isSecretValue(value: string, secret: string): boolean {
  const forms = secretForms(secret);
  return secretTexts(value).some((text) => forms.includes(text) || wholeDecodings(text).includes(secret));
}

/** `text` (described by `where`) holds none of `secrets`. */
export function noSecretIn(text: string, secrets: readonly KnownSecret[], where: string): Finding {
  const found = findSecret(text, secrets);
  return finding(found === undefined, `no token or secret in ${where}`, found === undefined ? 'none' : `${found.kind} in ${where}`);
}

/** The secret values an answer's parsed JSON holds (the redactor's `secretMembers`: no URL, no `*_endpoint`). */
export function secretValuesIn(json: unknown): string[] {
  return secretMembers(json).map((m) => m.value);
}
