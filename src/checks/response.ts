/**
 * Checks on any HTTP answer: its status, its media type, its body. Each knows only what it expects;
 * the test that calls it names the rule and the title.
 */
import { describeResponse } from './describe-response.js';
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';

export function isSuccess(res: HttpResponse): boolean {
  return res.status >= 200 && res.status <= 299;
}

export function isClientError(res: HttpResponse): boolean {
  return res.status >= 400 && res.status <= 499;
}

/** The status is `expected` (or one of them). */
export function status(res: HttpResponse, expected: number | readonly number[]): Finding {
  const list = typeof expected === 'number' ? [expected] : expected;
  return finding(list.includes(res.status), list.length === 1 ? String(list[0]) : `one of ${list.join(', ')}`, describeResponse(res));
}

/** Any 2xx. */
export function success(res: HttpResponse): Finding {
  return finding(isSuccess(res), '2xx', describeResponse(res));
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
  return finding(
    ok,
    'a JSON object',
    ok ? 'a JSON object' : res.text.trim() === '' ? 'an empty body' : `${describeResponse(res)}, a body that is not a JSON object`,
  );
}

/** Nothing but whitespace in the body. */
export function emptyBody(res: HttpResponse): Finding {
  const length = res.text.trim().length;
  return finding(length === 0, 'an empty body', length === 0 ? 'empty' : `${describeResponse(res)}, a body of ${length} characters`);
}
