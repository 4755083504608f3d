/**
 * Checks on how a client repeats a call: the repetition is the same call (method and path; query
 * values are not the call, so a cache-busting `?_=<ms>` is the same call), and it carries the token
 * it was meant to carry. How the token travels (Bearer, another scheme, the URL) is other checks'
 * business; these say where it was. Token values are never shown.
 */
import { finding, type Finding } from './finding.js';
import { bearerOf, describeRequest, type ObservedRequest, pathOf } from './observed-request.js';

/**
 * `retry` repeats `original` (same method and path) carrying `token`. Values in `tokens` are
 * blanked out of both paths first: a token in a URL is another rule's business.
 */
export function repeatedWith(
  original: ObservedRequest,
  retry: ObservedRequest | undefined,
  token: string | undefined,
  what: string,
  tokens: ReadonlySet<string>,
): Finding {
  const expected = `${original.method} ${pathOf(original)} again, with ${what}`;
  const same = retry !== undefined && retry.method === original.method && blank(pathOf(retry), tokens) === blank(pathOf(original), tokens);
  const where = retry === undefined || token === undefined ? undefined : carriedIn(retry, token);
  let actual: string;
  if (retry === undefined) actual = 'no further API call';
  else if (!same) actual = `another call: ${describeRequest(retry)}`;
  else if (where !== undefined) actual = `the same call, with ${what} ${where} (${describeRequest(retry)})`;
  else {
    const held = bearerOf(retry);
    const instead = held === undefined ? 'no Bearer token' : held === bearerOf(original) ? 'the refused access token again' : 'another token';
    actual = `the same call without ${what}: it carried ${instead} (${describeRequest(retry)})`;
  }
  return finding(same && where !== undefined, expected, actual);
}

/** Where `request` carries `token`: as Bearer, in Authorization under another scheme, in another header, in the URL, in the body. */
export function carriedIn(request: ObservedRequest, token: string): string | undefined {
  if (bearerOf(request) === token) return 'as Bearer';
  const forms = [token, encodeURIComponent(token)];
  const has = (text: string | undefined) => text !== undefined && forms.some((f) => text.includes(f));
  const authorization = request.headers['authorization'];
  if (has(authorization)) return `in Authorization (${authorization!.split(' ')[0]})`;
  const header = Object.entries(request.headers).find(([, value]) => has(value));
  if (header !== undefined) return `in the ${header[0]} header`;
  if (has(request.target)) return 'in the URL';
  if (has(request.body)) return 'in the body';
  return undefined;
}

function blank(path: string, tokens: ReadonlySet<string>): string {
  let out = path;
  // Stryker disable next-line StringLiteral: any filler does, the same in both paths.
  for (const token of tokens) for (const form of [token, encodeURIComponent(token)]) out = out.split(form).join('');
  return out;
}
