/**
 * What a page of another site may do with an answer (Fetch standard, CORS): read it only when the
 * answer carries an Access-Control-Allow-Origin naming its origin, or `*`.
 */
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';

export function allowsOrigin(res: HttpResponse, origin: string): boolean {
  const value = res.headers['access-control-allow-origin']?.trim();
  return value === '*' || value?.toLowerCase() === origin.toLowerCase();
}

/** The answer gives `origin` no read access. */
export function noCrossOriginAllowance(res: HttpResponse, origin: string): Finding {
  const value = res.headers['access-control-allow-origin'];
  return finding(
    !allowsOrigin(res, origin),
    `no Access-Control-Allow-Origin for ${origin} (nor *)`,
    value === undefined ? 'none' : `Access-Control-Allow-Origin: ${value}`,
  );
}
