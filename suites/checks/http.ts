/**
 * Checks on any HTTP answer: its status, its media type, its body. Each knows only what it expects;
 * the test that calls it names the rule and the title.
 */
import { describe } from '../../src/harness/describe.js';
import { finding, type Finding } from '../../src/harness/finding.js';
import type { HttpResponse } from '../../src/harness/http.js';

export function isSuccess(res: HttpResponse): boolean {
  return res.status >= 200 && res.status <= 299;
}

export function isClientError(res: HttpResponse): boolean {
  return res.status >= 400 && res.status <= 499;
}

/** The status is `expected` (or one of them). */
export function status(res: HttpResponse, expected: number | readonly number[]): Finding {
  const list = typeof expected === 'number' ? [expected] : expected;
  return finding(list.includes(res.status), list.length === 1 ? String(list[0]) : `one of ${list.join(', ')}`, describe(res));
}

/** Any 2xx. */
export function success(res: HttpResponse): Finding {
  return finding(isSuccess(res), '2xx', describe(res));
}

/** The media type, without parameters, lower case ('' when there is none). */
export function mediaType(res: HttpResponse): string {
  return (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** application/json, or a `+json` type. */
export function jsonMediaType(res: HttpResponse): Finding {
  const type = mediaType(res);
  return finding(type === 'application/json' || type.endsWith('+json'), 'application/json', type || '(none)');
}

/** The body is a JSON object. */
export function jsonObjectBody(res: HttpResponse): Finding {
  const body = res.json;
  const ok = body !== null && typeof body === 'object' && !Array.isArray(body);
  return finding(ok, 'a JSON object', ok ? 'a JSON object' : res.text.trim() === '' ? 'an empty body' : `${describe(res)}, a body that is not a JSON object`);
}

/** Nothing but whitespace in the body. */
export function emptyBody(res: HttpResponse): Finding {
  const length = res.text.trim().length;
  return finding(length === 0, 'an empty body', length === 0 ? 'empty' : `${describe(res)}, a body of ${length} characters`);
}
