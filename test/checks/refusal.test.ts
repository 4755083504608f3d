import { noActionUrl, refusedWithoutToken } from '../../src/checks/refusal.js';
import { answer, table } from './table.js';

table('refused without a token (src/checks/refusal.ts)', [
  { name: 'a 4xx without a token', found: () => refusedWithoutToken(answer(403), undefined), ok: true },
  { name: 'a 4xx with a token in the body', found: () => refusedWithoutToken(answer(400), 'accessToken'), ok: false, actual: /with a token in accessToken/ },
  { name: 'a 2xx', found: () => refusedWithoutToken(answer(200), undefined), ok: false },
  { name: 'a 5xx is no refusal', found: () => refusedWithoutToken(answer(503), undefined), ok: false },
]);

table('no action URL for a stranger (src/checks/refusal.ts)', [
  { name: 'a 404', found: () => noActionUrl(answer(404), undefined), ok: true },
  { name: "a 404 whose problem type is a URL: the refusal's body is not an answer", found: () => noActionUrl(answer(404), 'type'), ok: true },
  { name: 'a 202 without a URL (answered alike whether known or not)', found: () => noActionUrl(answer(202), undefined), ok: true },
  { name: 'a 200 with an action URL', found: () => noActionUrl(answer(200), 'actionUrl'), ok: false, actual: '200 with an action URL in actionUrl' },
  { name: 'a 500', found: () => noActionUrl(answer(500), undefined), ok: false },
]);
