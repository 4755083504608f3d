import { refusedWithoutToken } from '../../src/checks/refusal.js';
import { answer, table } from './table.js';

table('refused without a token (src/checks/refusal.ts)', [
  { name: 'a 4xx without a token', found: () => refusedWithoutToken(answer(403), undefined), ok: true },
  { name: 'a 4xx with a token in the body', found: () => refusedWithoutToken(answer(400), 'accessToken'), ok: false, actual: /with a token in accessToken/ },
  { name: 'a 2xx', found: () => refusedWithoutToken(answer(200), undefined), ok: false },
  { name: 'a 5xx is no refusal', found: () => refusedWithoutToken(answer(503), undefined), ok: false },
]);
