/**
 * Checks on a client's attempt to get a new access token (`tack client`): whether the token it
 * sent was still alive. Token values are never shown.
 */
import { finding, type Finding } from './finding.js';
import { accessTokenIssued, describeRequest, isInvalidGrant, type ObservedRequest } from './observed-request.js';

/** The renewal was answered with an access token: the token it sent (`what`) was alive. */
export function stillAlive(request: ObservedRequest, what: string): Finding {
  const issued = accessTokenIssued(request) !== undefined;
  const actual = issued ? 'a new access token' : isInvalidGrant(request) ? `invalid_grant: ${what} was dead` : 'no access token';
  return finding(issued, `a new access token for ${what}`, `${actual} (${describeRequest(request)})`);
}
