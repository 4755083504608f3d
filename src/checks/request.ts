/**
 * Checks on a request a client under test sent (`tack client`): where it went, its media type, its
 * form fields and headers. Each knows only what it expects; the judge that calls it names the rule
 * and the title. Token values are never shown: a finding says which kind of value it saw.
 */
import { headerTexts } from '../harness/redactor.js';
import { finding, type Finding } from './finding.js';
import { findSecret } from './leaks.js';
import { bearerOf, describeRequest, formOf, jsonOf, mediaTypeOf, type ObservedRequest, pathOf, type Role } from './observed-request.js';

/** The method and path are the expected ones. */
export function sentTo(request: ObservedRequest, method: string, path: string): Finding {
  return finding(request.method === method && pathOf(request) === path, `${method} ${path}`, describeRequest(request));
}

/** The body's media type (without parameters) is `expected`. */
export function mediaType(request: ObservedRequest, expected: string): Finding {
  const type = mediaTypeOf(request);
  return finding(type === expected, expected, type === '' ? `no Content-Type (${describeRequest(request)})` : `${type} (${describeRequest(request)})`);
}

/** A form field has exactly the expected value (`shown` describes it without revealing it). */
export function formField(request: ObservedRequest, name: string, expected: string, shown: string = expected): Finding {
  const value = formOf(request)?.get(name);
  const actual = value === undefined || value === null ? `no ${name} field` : value === expected ? shown : `another ${name}`;
  return finding(value === expected, `${name}=${shown}`, `${actual} (${describeRequest(request)})`);
}

/** A form field is there and not empty (its value is not shown). */
export function formFieldPresent(request: ObservedRequest, name: string): Finding {
  const value = formOf(request)?.get(name);
  const present = value !== undefined && value !== null && value !== '';
  return finding(present, `a ${name} field`, present ? `a ${name} field` : `no ${name} field (${describeRequest(request)})`);
}

/** None of these fields is in the body, form-encoded or JSON. */
export function noBodyFields(request: ObservedRequest, names: readonly string[]): Finding {
  const form = formOf(request);
  const json = jsonOf(request.body);
  const inJson = (name: string) => json !== null && typeof json === 'object' && !Array.isArray(json) && name in json;
  const present = names.filter((name) => form?.has(name) === true || inJson(name));
  return finding(present.length === 0, `none of ${names.join(', ')}`, present.length === 0 ? 'none' : `${present.join(', ')} (${describeRequest(request)})`);
}

/** A member of the JSON object body is exactly `expected` (`shown` describes it without revealing it). */
export function jsonField(request: ObservedRequest, name: string, expected: string, shown: string): Finding {
  const body = jsonOf(request.body);
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const value = isObject ? (body as Record<string, unknown>)[name] : undefined;
  let actual: string;
  if (!isObject) actual = 'a body that is not a JSON object';
  else if (value === undefined) actual = `no ${name} member`;
  else actual = value === expected ? shown : `another ${name}`;
  return finding(value === expected, `${name}: ${shown}`, `${actual} (${describeRequest(request)})`);
}

/** The request went to the host of `role` (`where` names it, e.g. "the tenant host that minted it"). */
export function atRole(request: ObservedRequest, role: Role, where: string): Finding {
  const actual = request.role === 'identity' ? 'the sign-in server' : request.role === 'tenant' ? 'the tenant host' : 'another host';
  return finding(request.role === role, where, `${actual} (${describeRequest(request)})`);
}

/** The header is absent (its value, if any, is not shown). */
export function noHeader(request: ObservedRequest, name: string): Finding {
  const present = request.headers[name.toLowerCase()] !== undefined;
  return finding(!present, `no ${name} header`, present ? `an ${name} header (${describeRequest(request)})` : 'none');
}

/** The header carries exactly `expected` (`shown` describes it without revealing it). */
export function headerValue(request: ObservedRequest, name: string, expected: string, shown: string): Finding {
  const value = request.headers[name.toLowerCase()];
  const actual = value === undefined ? `no ${name} header` : value === expected ? shown : `another value in ${name}`;
  return finding(value === expected, `${name}: ${shown}`, `${actual} (${describeRequest(request)})`);
}

/** `Authorization: Bearer <t>` with `t` one of `issued` (access tokens the server handed out). */
export function bearerAmong(request: ObservedRequest, issued: ReadonlySet<string>, what: string): Finding {
  const header = request.headers['authorization'];
  const token = bearerOf(request);
  let actual: string;
  if (header === undefined) actual = 'no Authorization header';
  else if (token === undefined) actual = 'an Authorization header that is not Bearer <token>';
  else if (!issued.has(token)) actual = `a Bearer token that is not ${what}`;
  else actual = `Bearer with ${what}`;
  // Stryker disable next-line ConditionalExpression: no token is never among the issued ones.
  return finding(token !== undefined && issued.has(token), `Authorization: Bearer with ${what}`, `${actual} (${describeRequest(request)})`);
}

/**
 * The request carries no partner key: neither of the two credential headers, and the secret in no
 * header (under any name), body or URL, in any form of the redactor's definition, `Basic` credentials
 * decoded (`headerTexts`). Values are not shown.
 */
export function withoutPartnerKey(request: ObservedRequest, headers: readonly string[], secret: string): Finding {
  const named = headers.filter((name) => request.headers[name.toLowerCase()] !== undefined);
  const secrets = [{ value: secret, kind: 'the partner secret' }];
  const elsewhere = Object.entries(request.headers).filter(
    ([name, value]) => !named.some((n) => n.toLowerCase() === name) && headerTexts(value).some((text) => findSecret(text, secrets) !== undefined),
  );
  // The body and the URL too (`client_secret=` in a form, a JSON member): the one definition of a secret.
  const inBody = request.body !== undefined && request.body !== '' && findSecret(request.body, secrets) !== undefined;
  const inTarget = findSecret(request.target, secrets) !== undefined;
  const found = [
    ...named,
    ...elsewhere.map(([name]) => `the secret in ${name}`),
    ...(inBody ? ['the secret in the body'] : []),
    ...(inTarget ? ['the secret in the URL'] : []),
  ];
  const actual = found.length === 0 ? 'none' : `${found.join(', ')} (${describeRequest(request)})`;
  return finding(found.length === 0, 'no partner key header and the secret in no header, body or URL', actual);
}
