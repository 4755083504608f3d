import { exitAgrees, workDone } from '../../src/checks/exit.js';
import { table } from './table.js';

table('exit status (src/checks/exit.ts)', [
  { name: 'its work succeeded, exit 0', found: () => exitAgrees(0, true, 'it listed the businesses'), ok: true },
  { name: 'its work succeeded, exit 1', found: () => exitAgrees(1, true, 'it listed the businesses'), ok: false, actual: 'exit 1' },
  { name: 'it gave up, exit 3', found: () => exitAgrees(3, false, 'invalid_grant'), ok: true },
  { name: 'it gave up, exit 0', found: () => exitAgrees(0, false, 'invalid_grant'), ok: false, actual: 'exit 0' },
  {
    name: 'killed by a signal after its work succeeded is not exit 0',
    found: () => exitAgrees(null, true, 'it listed the businesses', 'SIGKILL'),
    ok: false,
    actual: 'ended by SIGKILL',
  },
  { name: 'it gave up, ended by SIGABRT', found: () => exitAgrees(null, false, 'invalid_grant', 'SIGABRT'), ok: true },
]);

table('work done (src/checks/exit.ts)', [
  { name: 'its search succeeded', found: () => workDone(true, ''), ok: true, actual: 'it did' },
  { name: 'it gave up first', found: () => workDone(false, 'exit 1 after 1 request'), ok: false, actual: 'exit 1 after 1 request' },
]);
