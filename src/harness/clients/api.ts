/**
 * Client of the bearer-protected API (spec §4.3): business search at a tenant host.
 */
import type { HttpClient, HttpResponse } from '../http.js';
import { PATHS } from '../../spec.js';

export class ApiClient {
  constructor(private readonly http: HttpClient) {}

  /** `GET {baseUrl}/api/businesses/search`; `token` undefined sends no Authorization header. */
  search(baseUrl: string, token: string | undefined, query: Record<string, string> = {}): Promise<HttpResponse> {
    const qs = new URLSearchParams(query).toString();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    return this.http.send({ method: 'GET', url: `${baseUrl}${PATHS.search}${qs ? `?${qs}` : ''}`, headers, role: 'tenant host' });
  }

  raw(method: string, url: string, headers: Record<string, string>): Promise<HttpResponse> {
    return this.http.send({ method, url, headers, role: 'tenant host' });
  }
}
