import { ownerOnly, replacedWhole, stillHoldsToken } from '../../src/checks/token-file.js';
import { table } from './table.js';

table('the token file (src/checks/token-file.ts)', [
  { name: 'a new inode', found: () => replacedWhole(10, 11), ok: true, actual: 'a new file' },
  { name: 'the same inode', found: () => replacedWhole(10, 10), ok: false, actual: /rewritten in place/ },
  { name: 'mode 0600', found: () => ownerOnly(0o600), ok: true },
  { name: 'mode 0400', found: () => ownerOnly(0o400), ok: true },
  { name: 'mode 0644', found: () => ownerOnly(0o644), ok: false, actual: 'mode 0644' },
  { name: 'mode 0660 (group)', found: () => ownerOnly(0o660), ok: false, actual: 'mode 0660' },
  { name: 'a file with a token', found: () => stillHoldsToken('tpat_abc\n'), ok: true, actual: 'a token' },
  { name: 'an empty file', found: () => stillHoldsToken(' \n'), ok: false, actual: 'the token file empty' },
  { name: 'no file', found: () => stillHoldsToken(null), ok: false, actual: 'the token file missing' },
]);
