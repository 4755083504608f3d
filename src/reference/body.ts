/**
 * Reading request bodies: a hard size limit, the Content-Type check, JSON and form parsing. Every
 * failure is a 4xx HttpError; a client that goes away mid-body rejects the read, and the caller's
 * error path then finds the response already unusable and writes nothing.
 */
import type { IncomingMessage } from 'node:http';
import { badRequest, payloadTooLarge, unsupportedMediaType } from './errors.js';

/** Largest request body the server reads (64 KiB); anything larger is answered 413. */
const BODY_LIMIT = 64 * 1024;

class ClientGone extends Error {
  constructor() {
    super('the client closed the request before its body was complete');
    this.name = 'ClientGone';
  }
}

/** Where a request keeps the reading of its body, so that it is read once. */
const READING = Symbol('tack.body');
const BYTES = Symbol('tack.body-bytes');
type Readable = IncomingMessage & { [READING]?: Promise<string>; [BYTES]?: Promise<Buffer> };

/**
 * Reads the whole body as UTF-8, refusing it with 413 as soon as it passes `limit` bytes. A body is
 * read once: a second call gets the same promise (the recorder of `tack client` reads every body
 * before the handler does, and the handler then reads the same text).
 */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<string> {
  const readable = req as Readable;
  readable[READING] ??= readBodyBytes(req, limit).then((bytes) => bytes.toString('utf8'));
  return readable[READING];
}

/** The body's bytes, read once as `readBody` reads them (the recorder decodes a `Content-Encoding` from them). */
export function readBodyBytes(req: IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
  const readable = req as Readable;
  readable[BYTES] ??= readStream(req, limit);
  return readable[BYTES];
}

/** The listeners are inline and guarded by `settled` rather than removed: this runs on every exchange. */
function readStream(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return Promise.reject(payloadTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    let size = 0;
    let first: Buffer | undefined;
    let rest: Buffer[] | undefined;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        req.resume(); // drain and drop the rest; the 413 closes the connection
        reject(payloadTooLarge(limit));
      } else if (first === undefined) {
        first = chunk;
      } else {
        rest ??= [first];
        rest.push(chunk);
      }
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      if (first === undefined) resolve(Buffer.alloc(0));
      else resolve(rest === undefined ? first : Buffer.concat(rest));
    });
    req.on('close', () => {
      if (settled) return;
      settled = true;
      reject(new ClientGone());
    });
    req.on('error', () => {
      if (settled) return;
      settled = true;
      reject(new ClientGone());
    });
  });
}

/** The media type of the request, lower-cased, without parameters; '' when there is none. */
export function mediaType(req: IncomingMessage): string {
  const header = req.headers['content-type'];
  if (header === undefined) return '';
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}

export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export type JsonObject = { readonly [key: string]: unknown };

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a JSON object body. `allowEmpty` treats a missing body as `{}` (the hook's `{}` bodies);
 * otherwise an empty body is a 400 like any other malformed one.
 */
export async function readJsonObject(req: IncomingMessage, options: { allowEmpty?: boolean; anyMediaType?: boolean } = {}): Promise<JsonObject> {
  const type = mediaType(req);
  const text = await readBody(req);
  if (text.trim() === '' && options.allowEmpty === true) return {};
  if (!isJsonMediaType(type) && options.anyMediaType !== true) throw unsupportedMediaType('application/json');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('malformed_json', 'The request body is not valid JSON.');
  }
  if (!isJsonObject(value)) throw badRequest('malformed_json', 'The request body must be a JSON object.');
  return value;
}

export function isClientGone(error: unknown): boolean {
  return error instanceof ClientGone;
}
