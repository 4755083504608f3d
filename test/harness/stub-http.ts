/** An HttpClient stand-in for the clients' unit tests: it keeps each request and answers from a function. */
import type { HttpClient, HttpRequest, HttpResponse } from '../../src/harness/http.js';

export function stubHttp(answer: (req: HttpRequest) => { status: number; json?: unknown }): { http: HttpClient; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const http = {
    send: (req: HttpRequest): Promise<HttpResponse> => {
      sent.push(req);
      const { status, json } = answer(req);
      return Promise.resolve({ status, headers: {}, text: json === undefined ? '' : JSON.stringify(json), json, ms: 1, seq: sent.length });
    },
  };
  return { http: http as unknown as HttpClient, sent };
}
