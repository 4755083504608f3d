import { apiTokenIssued, noApiToken } from '../../src/checks/generation.js';
import { answer, table } from './table.js';

table("the hook's API-token generation (src/checks/generation.ts)", [
  { name: 'refused: 403 without a token', found: () => noApiToken(answer(403, { json: { error: 'feature_disabled' } })), ok: true },
  { name: 'a 5xx is no refusal', found: () => noApiToken(answer(500, { json: { error: 'boom' } })), ok: false },
  { name: 'a token issued is no refusal', found: () => noApiToken(answer(201, { json: { apiToken: 'tpat_x' } })), ok: false },
  { name: 'a 4xx with a token is no refusal', found: () => noApiToken(answer(403, { json: { apiToken: 'tpat_x' } })), ok: false },
  { name: 'issued: 201 with apiToken', found: () => apiTokenIssued(answer(201, { json: { apiToken: 'tpat_x' } })), ok: true },
  { name: 'issued: 200 is not the contract', found: () => apiTokenIssued(answer(200, { json: { apiToken: 'tpat_x' } })), ok: false },
  { name: 'issued: 201 without apiToken', found: () => apiTokenIssued(answer(201, { json: {} })), ok: false },
]);
