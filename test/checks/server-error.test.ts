import { noServerErrors, notServerError, not401 } from '../../src/checks/server-error.js';
import { answer, table } from './table.js';

const ok = answer(400, { json: { error: 'invalid_request' } });
const broken = answer(500, { json: { error: 'server_error' } });

table('server errors (src/checks/server-error.ts)', [
  { name: 'a 400 is not a server error', found: () => notServerError(ok), ok: true },
  { name: 'a 503 is', found: () => notServerError(answer(503)), ok: false, actual: '503' },
  { name: 'many answers, none 5xx', found: () => noServerErrors([{ res: ok, what: 'a' }]), ok: true, actual: '1 answer(s), none 5xx' },
  { name: 'no answers at all', found: () => noServerErrors([]), ok: true, actual: '0 answer(s), none 5xx' },
  {
    name: 'one of three 5xx, named',
    found: () =>
      noServerErrors([
        { res: ok, what: 'a' },
        { res: broken, what: 'POST /x without grant_type' },
        { res: answer(200), what: 'c' },
      ]),
    ok: false,
    actual: '1 of 3 answered 5xx, the first 500 server_error to POST /x without grant_type',
  },
  { name: 'a malformed body refused with 400', found: () => not401(ok), ok: true },
  { name: 'refused with 415', found: () => not401(answer(415)), ok: true },
  { name: 'taken leniently (another rule judges that)', found: () => not401(answer(201)), ok: true },
  { name: 'refused with 401: a credentials status for a body problem', found: () => not401(answer(401)), ok: false, actual: '401' },
  { name: 'one check id covered a 5xx and a 401: a 500 is judged apart, not401 holds on it', found: () => not401(broken), ok: true },
]);
