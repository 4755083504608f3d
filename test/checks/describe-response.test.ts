import { describeResponse } from '../../src/checks/describe-response.js';
import { answer, table } from './table.js';

const json = { 'content-type': 'application/json; charset=utf-8' };
const says = (text: string, expected: string) => ({ ok: text === expected, expected, actual: text });

table('a response in words (src/checks/describe-response.ts)', [
  {
    name: 'status, OAuth error, media type',
    found: () => says(describeResponse(answer(400, { json: { error: 'invalid_grant' }, headers: json })), '400 invalid_grant (application/json)'),
    ok: true,
  },
  { name: 'status alone', found: () => says(describeResponse(answer(204)), '204'), ok: true },
  { name: 'an error member that is no string is left out', found: () => says(describeResponse(answer(500, { json: { error: 7 } })), '500'), ok: true },
]);
