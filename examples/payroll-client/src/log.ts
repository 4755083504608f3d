/**
 * The client's log: one line per event on stderr. Secrets never go in: messages are written by this
 * code and name tokens by what they are, never by value. As a second line of defence, every secret
 * the client holds is registered with `protect()` and masked should one ever slip into a message.
 */

const protectedValues = new Set<string>();

/** Masks `value` (a token, a secret) in every later log line. */
export function protect(value: string | undefined): void {
  if (value !== undefined && value.length >= 8) protectedValues.add(value);
}

export function log(message: string): void {
  let line = message;
  for (const value of protectedValues) line = line.split(value).join('***');
  process.stderr.write(`payroll-client: ${line}\n`);
}
