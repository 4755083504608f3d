/** A short, redaction-safe description of a response: status, OAuth error code, content type. */
import type { HttpResponse } from '../harness/http.js';

export function describeResponse(res: HttpResponse): string {
  const body = res.json as Record<string, unknown> | undefined;
  const error = body && typeof body.error === 'string' ? ` ${body.error}` : '';
  const type = res.headers['content-type'] ? ` (${res.headers['content-type'].split(';')[0]})` : '';
  return `${res.status}${error}${type}`;
}
