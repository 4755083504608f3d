/**
 * The one error serializer. Whatever a handler throws ends here:
 *
 * - tenant hosts (and routing errors everywhere): RFC 7807 `application/problem+json` with `type`,
 *   `title`, `status`, `detail`;
 * - the sign-in server's protocol errors (400/401): RFC 6749 §5.2 JSON
 *   `{"error","error_description"}` with `Cache-Control: no-store`;
 * - the test hook: `{"error","message"}` as `tack-hook/1` requires;
 * - the web pages of both hosts (account pages, sign-in forms): an HTML error page.
 *
 * Anything that is not an HttpError becomes a 500 `server_error` whose body says nothing about the
 * cause; the log line names the step and the error class only, never a message that could quote a
 * request (and so a secret).
 */
import type { ServerResponse } from 'node:http';
import { HttpError, isHttpError } from './errors.js';
import type { FaultSet } from './faults.js';
import { errorPage, sendPage } from './html-pages.js';
import { NO_STORE, sendBody } from './respond.js';

/** How an error body is written (the list above): problem details, an OAuth error, the test hook's, or a web page. */
export type ErrorFormat = 'problem' | 'oauth' | 'hook' | 'html';

const PROBLEM_TYPE_PREFIX = 'urn:tack:problem:';

export type ErrorLog = (line: string) => void;

export const defaultErrorLog: ErrorLog = (line) => {
  process.stderr.write(`tack reference server: ${line}\n`);
};

export function sendError(
  res: ServerResponse,
  format: ErrorFormat,
  thrown: unknown,
  faults: FaultSet,
  log: ErrorLog = defaultErrorLog,
  where = 'request',
): void {
  if (res.writableEnded || res.destroyed) return;
  if (res.headersSent) {
    // Half a response is out; the only safe thing left is to drop the connection.
    res.destroy();
    return;
  }
  const error = isHttpError(thrown) ? thrown : unexpected(thrown, log, where);
  if (format === 'hook') {
    sendBody(res, error.status, 'application/json', JSON.stringify({ error: error.code, message: error.detail }), error.headers);
    return;
  }
  if (format === 'html') {
    sendPage(res, error.status, errorPage(error.title, error.detail), error.headers);
    return;
  }
  if (format === 'oauth' && (error.status === 400 || error.status === 401)) {
    const body = JSON.stringify({ error: error.code, error_description: error.detail });
    sendBody(res, error.status, 'application/json', body, { ...error.headers, ...NO_STORE });
    return;
  }
  const body = JSON.stringify({
    type: PROBLEM_TYPE_PREFIX + error.code,
    title: error.title,
    status: faults.has('problem-status-mismatch') ? 500 : error.status,
    detail: error.detail,
  });
  // PARTNER-PROBLEM-DETAILS: RFC 7807 problem details, labelled as such, status member equal to the status.
  const contentType = faults.has('errors-as-plain-json') ? 'application/json' : 'application/problem+json';
  sendBody(res, error.status, contentType, faults.has('problem-body-not-json') ? `${error.status} ${error.title}` : body, error.headers);
}

function unexpected(thrown: unknown, log: ErrorLog, where: string): HttpError {
  // The message may quote input (and so a secret): log the class and the stack frames only.
  const kind = thrown instanceof Error ? thrown.name : typeof thrown;
  const frames =
    thrown instanceof Error && thrown.stack !== undefined
      ? thrown.stack
          .split('\n')
          .filter((line) => line.trimStart().startsWith('at '))
          .slice(0, 4)
          .join(' | ')
      : '';
  log(`unexpected ${kind} in ${where}; answered 500${frames === '' ? '' : ` (${frames.trim()})`}`);
  return new HttpError(500, 'server_error', 'The server met an unexpected condition.');
}
