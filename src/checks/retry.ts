/**
 * Checks on how a client repeats a call: the repetition is the same request (method and target),
 * sent with the token it was meant to carry. Token values are never shown.
 */
import { finding, type Finding } from './finding.js';
import { bearerOf, describeRequest, type ObservedRequest } from './observed-request.js';

/**
 * `retry` repeats `original` (same method and target) with `Authorization: Bearer <token>`. Values
 * in `tokens` are blanked out of both targets first: a token in a URL is another rule's business.
 */
export function repeatedWith(
  original: ObservedRequest,
  retry: ObservedRequest | undefined,
  token: string | undefined,
  what: string,
  tokens: ReadonlySet<string>,
): Finding {
  const expected = `${original.method} ${original.target.split('?')[0]} again, with ${what}`;
  const same = retry !== undefined && retry.method === original.method && blank(retry.target, tokens) === blank(original.target, tokens);
  const carries = retry !== undefined && token !== undefined && bearerOf(retry) === token;
  const actual =
    retry === undefined
      ? 'no further API call'
      : !same
        ? `another call: ${describeRequest(retry)}`
        : `the same call ${carries ? 'with' : 'without'} ${what} (${describeRequest(retry)})`;
  return finding(same && carries, expected, actual);
}

function blank(target: string, tokens: ReadonlySet<string>): string {
  let out = target;
  for (const token of tokens) for (const form of [token, encodeURIComponent(token)]) out = out.split(form).join('');
  return out;
}
