import { finding } from '../../src/checks/finding.js';
import { table } from './table.js';

table('a finding (src/checks/finding.ts)', [
  { name: 'holds', found: () => finding(1 + 1 === 2, '2', '2'), ok: true, actual: '2' },
  { name: 'does not hold', found: () => finding('a'.length === 2, '2 characters', '1 character'), ok: false, actual: '1 character' },
]);
