/** A TestContext stand-in for the steps' unit tests: it records each verdict instead of judging a run. */
import type { Finding } from '../../src/checks/finding.js';
import type { HttpResponse } from '../../src/harness/http.js';
import type { TestContext } from '../../src/runner/test-context.js';

export interface Recorded {
  readonly how: 'check' | 'soft' | 'unverified' | 'observe';
  readonly rule: string;
  readonly title: string;
  readonly ok?: boolean;
  readonly reason?: string;
}

/** A context whose check/soft/unverified/observe calls land in `records`; `extra` supplies what a step reads (api, target, partner…). */
export function stubContext(extra: Record<string, unknown> = {}): { t: TestContext; records: Recorded[] } {
  const records: Recorded[] = [];
  const t = {
    check: (rule: string, title: string, found: Finding) => {
      records.push({ how: 'check', rule, title, ok: found.ok });
      if (!found.ok) throw new Error(`check failed: ${title}`);
    },
    soft: (rule: string, title: string, found: Finding) => {
      records.push({ how: 'soft', rule, title, ok: found.ok });
      return found.ok;
    },
    unverified: (rule: string, title: string, reason: string) => records.push({ how: 'unverified', rule, title, reason }),
    observe: (rule: string, title: string) => records.push({ how: 'observe', rule, title }),
    ...extra,
  };
  return { t: t as unknown as TestContext, records };
}

/** An answer as HttpClient returns it: `json` is the body, `text` its serialisation. */
export function response(status: number, json?: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers, text: json === undefined ? '' : JSON.stringify(json), json, ms: 1, seq: 1 };
}
