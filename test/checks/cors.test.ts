import { noCrossOriginAllowance } from '../../src/checks/cors.js';
import { answer, table } from './table.js';

const ORIGIN = 'https://evil.example';
const acao = (value: string) => answer(200, { headers: { 'access-control-allow-origin': value } });

table('no cross-origin allowance (src/checks/cors.ts)', [
  { name: 'no Access-Control-Allow-Origin', found: () => noCrossOriginAllowance(answer(200), ORIGIN), ok: true, actual: 'none' },
  { name: 'another origin', found: () => noCrossOriginAllowance(acao('https://app.example'), ORIGIN), ok: true },
  { name: 'the origin itself', found: () => noCrossOriginAllowance(acao(ORIGIN), ORIGIN), ok: false, actual: `Access-Control-Allow-Origin: ${ORIGIN}` },
  { name: 'the origin in another letter case, spaced', found: () => noCrossOriginAllowance(acao(' HTTPS://EVIL.EXAMPLE '), ORIGIN), ok: false },
  { name: '*', found: () => noCrossOriginAllowance(acao('*'), ORIGIN), ok: false },
]);
