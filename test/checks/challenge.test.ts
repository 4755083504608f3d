import { bearerChallenge } from '../../src/checks/challenge.js';
import { answer, table } from './table.js';

const www = (value: string) => answer(401, { headers: { 'www-authenticate': value } });

table('bearer challenge (src/checks/challenge.ts)', [
  { name: 'Bearer', found: () => bearerChallenge(www('Bearer')), ok: true },
  { name: 'bearer with parameters, any letter case', found: () => bearerChallenge(www('bearer realm="api", error="invalid_token"')), ok: true },
  { name: 'Bearer as the second challenge', found: () => bearerChallenge(www('Basic realm="x", Bearer')), ok: true },
  { name: 'Basic only', found: () => bearerChallenge(www('Basic realm="x"')), ok: false, actual: 'Basic realm="x"' },
  { name: 'a word that starts with bearer', found: () => bearerChallenge(www('BearerToken')), ok: false },
  { name: 'no header', found: () => bearerChallenge(answer(401)), ok: false, actual: 'no WWW-Authenticate header' },
]);
