/** RFC 7807 problem details (spec §7: partner-key errors are problem details). */
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';
import { jsonObjectBody, mediaType } from './response.js';

export function problemMediaType(res: HttpResponse): Finding {
  const type = mediaType(res);
  return finding(type === 'application/problem+json', 'application/problem+json', type || '(none)');
}

/** The body of a problem is a JSON object (RFC 7807 §3). */
export function problemBody(res: HttpResponse): Finding {
  return jsonObjectBody(res);
}

/** The `status` member, when there is one, is the HTTP status (RFC 7807 §3.1). */
export function problemStatusMember(res: HttpResponse): Finding {
  const status = (res.json as { status?: unknown } | undefined)?.status;
  return finding(status === undefined || status === res.status, `no status member, or ${res.status}`, status === undefined ? 'none' : JSON.stringify(status));
}
