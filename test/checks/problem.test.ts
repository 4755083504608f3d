import { problemBody, problemMediaType, problemStatusMember } from '../../src/checks/problem.js';
import { answer, table } from './table.js';

const problem = { 'content-type': 'application/problem+json' };

table('problem details (src/checks/problem.ts)', [
  { name: 'media type: application/problem+json', found: () => problemMediaType(answer(400, { headers: problem })), ok: true },
  {
    name: 'media type: application/json',
    found: () => problemMediaType(answer(400, { headers: { 'content-type': 'application/json' } })),
    ok: false,
    actual: 'application/json',
  },
  { name: 'body: an object', found: () => problemBody(answer(400, { json: { title: 'Bad' } })), ok: true },
  { name: 'body: a string', found: () => problemBody(answer(400, { json: 'Bad' })), ok: false },
  { name: 'status member: absent', found: () => problemStatusMember(answer(401, { json: { title: 'x' } })), ok: true, actual: 'none' },
  { name: 'status member: the status', found: () => problemStatusMember(answer(401, { json: { status: 401 } })), ok: true },
  { name: 'status member: another', found: () => problemStatusMember(answer(401, { json: { status: 400 } })), ok: false, actual: '400' },
  { name: 'status member: the status as a string', found: () => problemStatusMember(answer(401, { json: { status: '401' } })), ok: false, actual: '"401"' },
]);
