/**
 * Before any rule, two things, each ending the run at once (exit 2) with a message that names the
 * host or the variable and the fix, instead of a page of per-rule failures a minute later:
 *
 * 1. Can the target's hosts be reached at all? Every configured host is probed once (tenant A, the
 *    sign-in server, tenant B and the test hook when set). A refused connection, an unknown name, a
 *    host that does not answer in time, one that closes the connection or answers something that
 *    is not HTTP, TLS that fails (https:// to a plain-HTTP port says use http://), or 502 / 503 / 504
 *    (a gateway whose service is down) stops the run. Any other answer, however wrong (500, an HTML
 *    page, garbage with 200), means the host is up: the rules then say what is wrong with it.
 * 2. Is the configuration right? The probes `tack doctor` sends (./config-probes.ts): the token
 *    endpoint under TACK_IDENTITY_URL with TACK_CLIENT_ID, each partner key, the test hook's token
 *    (its capabilities are read), the token file (read, never exchanged). Only what no conformant
 *    target answers to right settings stops the run; a target that accepts the settings here and
 *    refuses valid credentials later fails the rules that meet it.
 */
import { HookClient } from './clients/hook.js';
import { PartnerClient } from './clients/partner.js';
import { type ProbeResult, probePartnerKey, probeSignIn } from './config-probes.js';
import { isTackError, TackError } from './errors.js';
import type { HttpClient, HttpRequest } from './http.js';
import type { Session } from './session.js';
import { inspectTokenFile } from './token-file.js';
import type { TargetConfig } from './target-config.js';
import { PATHS } from '../spec.js';

/** Statuses of a gateway whose service is not there (RFC 9110 §15.6.3-5). */
const DOWN: Record<number, string> = { 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

export async function preflight(session: Pick<Session, 'target' | 'http' | 'transcript' | 'redactor'>): Promise<void> {
  const { target, http, transcript } = session;
  transcript.setTest('preflight');
  try {
    for (const probe of probesOf(target)) {
      const problem = await probeHost(http, probe);
      if (problem) throw nothingChecked(problem);
    }
    for (const check of configurationChecks(session)) {
      const result = await check();
      if (result.status === 'problem') throw nothingChecked(result.error ?? new TackError('TACK_ERR_CONFIG', result.text));
    }
  } finally {
    transcript.setTest(undefined);
  }
}

function nothingChecked(problem: TackError): TackError {
  return new TackError(problem.code, `${problem.message}${/[?.]$/.test(problem.message) ? ' Nothing' : '; nothing'} was checked`, { cause: problem });
}

/** The configuration probes of a run, in order; each ends in a problem only for a mistake in the settings. */
function configurationChecks(session: Pick<Session, 'target' | 'http' | 'redactor'>): (() => Promise<ProbeResult>)[] {
  const { target, http, redactor } = session;
  const checks: (() => Promise<ProbeResult>)[] = [() => probeSignIn(http, target)];
  const keys = [
    { baseUrl: target.baseUrl, key: target.partner, what: "tenant A's partner key", idVar: 'TACK_PARTNER_CLIENT_ID', secretVar: 'TACK_PARTNER_SECRET' },
    {
      baseUrl: target.otherBaseUrl,
      key: target.otherPartner,
      what: "tenant B's partner key",
      idVar: 'TACK_OTHER_PARTNER_CLIENT_ID',
      secretVar: 'TACK_OTHER_PARTNER_SECRET',
    },
  ];
  for (const { baseUrl, key, ...names } of keys) {
    if (baseUrl !== undefined && key !== undefined)
      checks.push(() => probePartnerKey({ client: new PartnerClient(http, redactor, baseUrl, key, target), ...names }, target));
  }
  const hook = target.hook;
  if (hook) checks.push(() => hookAccepts(http, hook));
  const tokenFile = target.hookless?.tokenFile;
  if (tokenFile !== undefined) checks.push(async () => tokenFileReadable(tokenFile));
  return checks;
}

/** The test hook answers GET / with its capabilities for TACK_HOOK_TOKEN (a wrong token is a 401, TACK_ERR_HOOK). */
async function hookAccepts(http: HttpClient, hook: NonNullable<TargetConfig['hook']>): Promise<ProbeResult> {
  try {
    const capabilities = await new HookClient(http, hook.url, hook.token).discover();
    return { status: 'ok', text: `the test hook answers, capabilities: ${[...capabilities].join(', ') || 'none'}` };
  } catch (error) {
    if (isTackError(error)) return { status: 'problem', text: error.message, error };
    throw error;
  }
}

/** The token file can be read and holds one token, and its folder takes the rotations (read only: nothing is exchanged). */
function tokenFileReadable(tokenFile: string): ProbeResult {
  const report = inspectTokenFile(tokenFile);
  if (report.ok) return { status: 'ok', text: `${tokenFile}: ${report.notes.join('; ')}` };
  const text = report.problems.join('; ');
  return { status: 'problem', text, error: new TackError('TACK_ERR_TOKEN_FILE', text) };
}

/** One request per configured host; `tack doctor` sends the same ones. */
export function probesOf(target: TargetConfig): HttpRequest[] {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const probes: HttpRequest[] = [
    { role: 'tenant host', method: 'GET', url: `${target.baseUrl}${PATHS.search}`, headers: { accept: 'application/json' } },
    { role: 'identity server', method: 'POST', url: `${target.identityUrl}${PATHS.exchange}`, headers: form, body: '' },
  ];
  if (target.otherBaseUrl)
    probes.push({ role: "tenant B's host", method: 'GET', url: `${target.otherBaseUrl}${PATHS.search}`, headers: { accept: 'application/json' } });
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
