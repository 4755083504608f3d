/** What the doctor sections' unit tests share: a target from TACK_* variables, a recording `say`, and a stubbed HttpClient. */
import { resolveTarget, validateEnv } from '../../src/harness/config.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../../src/harness/http.js';
import type { TargetConfig } from '../../src/harness/target-config.js';
import type { DiagnosisStatus, Say } from '../../src/doctor/diagnosis.js';

export const BASE = { TACK_BASE_URL: 'http://acme.localhost:1', TACK_IDENTITY_URL: 'http://id.localhost:1/realms/payroll' };

export function targetOf(env: Record<string, string> = {}, builtIn = false): TargetConfig {
  return resolveTarget(validateEnv({ ...BASE, ...env }), builtIn);
}

/** A `say` that keeps each line as [status, text]. */
export function sayings(): { say: Say; lines: [DiagnosisStatus, string][] } {
  const lines: [DiagnosisStatus, string][] = [];
  return { say: (status, text) => lines.push([status, text]), lines };
}

/** An HttpClient whose answers come from `answer`; `sent` keeps the requests. */
export function stubHttp(answer: (req: HttpRequest) => { status: number; json?: unknown } | Error): { http: HttpClient; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const http = {
    send: (req: HttpRequest): Promise<HttpResponse> => {
      sent.push(req);
      const a = answer(req);
      if (a instanceof Error) return Promise.reject(a);
      return Promise.resolve({ status: a.status, headers: {}, text: JSON.stringify(a.json ?? ''), json: a.json, ms: 1, seq: sent.length });
    },
  };
  return { http: http as unknown as HttpClient, sent };
}
