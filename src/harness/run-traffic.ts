/**
 * The run's own traffic, as the tests that judge all of it read it (suites/run-wide/): each answered
 * exchange that went to an endpoint of the spec (§4: the partner-key endpoints and business search
 * at a tenant host, the token and revoke endpoints of the sign-in server), with the endpoint named
 * and the answer as the `HttpResponse` a check takes. The test hook, the web pages and anything
 * else are left out: the spec's rules are about its endpoints.
 */
import { parseJson, type HttpResponse } from './http.js';
import type { TargetConfig } from './target-config.js';
import type { Transcript } from './transcript.js';
import { PATHS } from '../spec.js';

/** Which side of the spec an endpoint belongs to. */
export type Side = 'partner-key' | 'sign-in' | 'search';

export interface SpecExchange {
  readonly side: Side;
  /** The endpoint, as the spec writes it: `POST /api/admin/users/{email}/reset-password`. */
  readonly endpoint: string;
  /** The test that sent it. */
  readonly test: string | undefined;
  readonly response: HttpResponse;
  /** A 429, or a 503 with Retry-After, that tack honoured: it waited and sent the request again (not the answer the request got). */
  readonly retried: boolean;
}

/** Every answered exchange of the run so far that went to an endpoint of the spec, in order. */
export function specTraffic(transcript: Transcript, target: TargetConfig): SpecExchange[] {
  const tenants = [target.baseUrl, ...(target.otherBaseUrl ? [target.otherBaseUrl] : [])];
  const out: SpecExchange[] = [];
  for (const e of transcript.answered()) {
    const where = classify(e.method, e.url, tenants, target.identityUrl);
    if (where === undefined) continue;
    const { status, headers, body } = e.response;
    out.push({ ...where, test: e.test, response: { status, headers, text: body, json: parseJson(body), ms: 0, seq: e.seq }, retried: e.retried });
  }
  return out;
}

function classify(method: string, url: string, tenants: readonly string[], identityUrl: string): { side: Side; endpoint: string } | undefined {
  const path = (base: string) => {
    const next = url[base.length];
    return url.startsWith(base) && (next === undefined || next === '/' || next === '?') ? (url.slice(base.length).split(/[?#]/)[0] ?? '') : undefined;
  };
  for (const base of tenants) {
    const rest = path(base);
    if (rest === undefined) continue;
    if (rest === PATHS.search) return { side: 'search', endpoint: `${method} ${PATHS.search}` };
    if (rest.startsWith(PATHS.adminPrefix))
      return { side: 'partner-key', endpoint: `${method} ${rest.replace(/^(\/api\/admin\/users\/)[^/]+(\/reset-password)$/, '$1{email}$2')}` };
    return undefined;
  }
  const rest = path(identityUrl);
  if (rest === PATHS.exchange || rest === PATHS.revoke) return { side: 'sign-in', endpoint: `${method} ${rest}` };
  return undefined;
}
