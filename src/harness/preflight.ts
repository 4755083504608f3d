/**
 * Before any rule: can the target's hosts be reached at all? Every configured host is probed once
 * (tenant A, the sign-in server, tenant B and the test hook when set). A refused connection, an
 * unknown name, a host that does not answer in time, one that closes the connection or answers
 * something that is not HTTP, or one that answers 502 / 503 / 504 (a gateway whose service is
 * down) ends the run at once (exit 2) with a message that names the host, instead of a page of
 * per-rule errors.
 *
 * Any other answer, however wrong (500, an HTML page, garbage with 200), means the host is up:
 * the rules then say what is wrong with it, as `failed`.
 */
import { isTackError, TackError } from './errors.js';
import type { HttpClient, HttpRequest } from './http.js';
import type { Session } from './session.js';
import type { TargetConfig } from './types.js';

/** Statuses of a gateway whose service is not there (RFC 9110 §15.6.3-5). */
const DOWN: Record<number, string> = { 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

export async function preflight(session: Pick<Session, 'target' | 'http' | 'transcript'>): Promise<void> {
  const { target, http, transcript } = session;
  transcript.setTest('preflight');
  try {
    for (const probe of probesOf(target)) {
      const problem = await probeHost(http, probe);
      if (problem)
        throw new TackError(problem.code, `${problem.message}${/[?.]$/.test(problem.message) ? ' Nothing' : '; nothing'} was checked`, { cause: problem });
    }
  } finally {
    transcript.setTest(undefined);
  }
}

/** One request per configured host; `tack doctor` sends the same ones. */
export function probesOf(target: TargetConfig): HttpRequest[] {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const probes: HttpRequest[] = [
    { role: 'tenant host', method: 'GET', url: `${target.baseUrl}/api/businesses/search`, headers: { accept: 'application/json' } },
    { role: 'identity server', method: 'POST', url: `${target.identityUrl}/protocol/openid-connect/token`, headers: form, body: '' },
  ];
  if (target.otherBaseUrl)
    probes.push({ role: "tenant B's host", method: 'GET', url: `${target.otherBaseUrl}/api/businesses/search`, headers: { accept: 'application/json' } });
  if (target.hook) probes.push({ role: 'test hook', method: 'GET', url: `${target.hook.url}/`, headers: { authorization: `Bearer ${target.hook.token}` } });
  return probes;
}

/** Undefined when the host answered HTTP (any status but 502-504); otherwise why it is not usable. */
export async function probeHost(http: HttpClient, probe: HttpRequest): Promise<TackError | undefined> {
  try {
    const res = await http.send(probe);
    const down = DOWN[res.status];
    if (down) {
      return new TackError(
        'TACK_ERR_UNREACHABLE',
        `${probe.role} ${new URL(probe.url).origin} answered ${res.status} ${down}: the service behind it is down or not ready`,
      );
    }
    return undefined;
  } catch (error) {
    if (isTackError(error)) return error;
    throw error;
  }
}
