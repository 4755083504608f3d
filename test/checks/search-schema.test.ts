import { searchSchema } from '../../src/checks/search.js';
import { answer, table } from './table.js';

const item = { id: 1, name: 'Acme', registrationNumber: 'R1' };

table('the search result schema (src/checks/search-schema.ts, through searchSchema)', [
  {
    name: 'schema: a page as the spec says',
    found: () => searchSchema(answer(200, { json: { items: [item], pageIndex: 0, pageSize: 10, totalCount: 1 } })),
    ok: true,
  },
  {
    name: 'schema: pageIndex from 1 is fine',
    found: () => searchSchema(answer(200, { json: { items: [], pageIndex: 1, pageSize: 10, totalCount: 0 } })),
    ok: true,
  },
  {
    name: 'schema: no totalCount',
    found: () => searchSchema(answer(200, { json: { items: [item], pageIndex: 0, pageSize: 10 } })),
    ok: false,
    actual: /^totalCount: /,
  },
  {
    name: 'schema: more items than pageSize',
    found: () => searchSchema(answer(200, { json: { items: [item, item], pageIndex: 0, pageSize: 1, totalCount: 2 } })),
    ok: false,
    actual: /2 items on a page of pageSize 1/,
  },
  { name: 'schema: not a 200', found: () => searchSchema(answer(403)), ok: false, actual: '403' },
  {
    name: 'schema: an item without registrationNumber',
    found: () => searchSchema(answer(200, { json: { items: [{ id: 1, name: 'A' }], pageIndex: 0, pageSize: 10, totalCount: 1 } })),
    ok: false,
    actual: /^items\.0\.registrationNumber: /,
  },
]);
