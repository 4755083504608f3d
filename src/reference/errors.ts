/**
 * The one error hierarchy of the reference server (the habit of node-oidc-provider): every refusal
 * is an HttpError that carries its HTTP status, a protocol code and a detail that may be shown to
 * the caller. `problem.ts` is the one serializer that turns an HttpError into the wire format of the
 * host that was called, and anything else into a safe 500.
 *
 * Codes are snake_case. The same code renders as the problem `type` (`urn:tack:problem:<code>`) on
 * tenant hosts, as the OAuth `error` on the sign-in server, and as the hook's `error`.
 */
import { STATUS_CODES } from 'node:http';

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  /** Short, fixed summary of the kind of problem (RFC 7807 `title`). */
  readonly title: string;
  /** Extra response headers (WWW-Authenticate, Allow, Connection). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: string, detail: string, options: { title?: string; headers?: Record<string, string> } = {}) {
    // A refusal is an answer, not a defect: its code names the rule, so no stack trace is captured
    // (capturing one cost more than the rest of a refused exchange).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.title = options.title ?? STATUS_CODES[status] ?? 'Error';
    this.headers = options.headers ?? {};
  }

  /** The text that may be shown to the caller. Never holds a secret or a token. */
  get detail(): string {
    return this.message;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

export const badRequest = (code: string, detail: string): HttpError => new HttpError(400, code, detail);

export const unauthorized = (code: string, detail: string, challenge?: string): HttpError =>
  new HttpError(401, code, detail, challenge === undefined ? {} : { headers: { 'www-authenticate': challenge } });

export const forbidden = (code: string, detail: string): HttpError => new HttpError(403, code, detail);

export const notFound = (code: string, detail: string): HttpError => new HttpError(404, code, detail);

export const conflict = (code: string, detail: string): HttpError => new HttpError(409, code, detail);

export const methodNotAllowed = (allow: readonly string[]): HttpError =>
  new HttpError(405, 'method_not_allowed', `This path accepts ${allow.join(', ')} only.`, { headers: { allow: allow.join(', ') } });

/** The body was larger than the limit. The connection is closed because the rest of it is unread. */
export const payloadTooLarge = (limit: number): HttpError =>
  new HttpError(413, 'payload_too_large', `The request body exceeds ${limit} bytes.`, { headers: { connection: 'close' } });

export const unsupportedMediaType = (expected: string): HttpError => new HttpError(415, 'unsupported_media_type', `The request body must be ${expected}.`);

/** The in-memory store is full (users or businesses created beyond the server's limits). */
export const insufficientStorage = (what: string): HttpError => new HttpError(507, 'insufficient_storage', `The reference server holds at most ${what}.`);
