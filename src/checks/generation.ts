/** Answers of the hook's API-token generation (`tack-hook/1`: 201 {"apiToken"}, or a 403 refusal). */
import { describeResponse } from './describe-response.js';
import { finding, type Finding } from './finding.js';
import type { HttpResponse } from '../harness/http.js';

function apiTokenOf(res: HttpResponse): unknown {
  return (res.json as { apiToken?: unknown } | undefined)?.apiToken;
}

/** A refusal: a 4xx without an apiToken member (the contract says 403; a 5xx is a failure, never a refusal). */
export function noApiToken(res: HttpResponse): Finding {
  const refused = res.status >= 400 && res.status <= 499 && typeof apiTokenOf(res) !== 'string';
  return finding(refused, 'refused: a 4xx and no API token (the hook contract: 403)', describeResponse(res));
}

/** 201 with an apiToken string. */
export function apiTokenIssued(res: HttpResponse): Finding {
  return finding(res.status === 201 && typeof apiTokenOf(res) === 'string', '201 with an apiToken', describeResponse(res));
}
