/**
 * Writes the route tables of docs/api.md from the procedures' REST declarations
 * (`meta.rest`). `npm run docs:api`; test/api-contract.test.ts fails when the
 * committed file is stale.
 */
import fs from 'node:fs';
import { withRouteTable } from '../src/server/http/api-docs';
import { restRoutes } from '../src/server/http/routes';
import { appRouter } from '../src/server/router';

const file = new URL('../docs/api.md', import.meta.url);
const before = fs.readFileSync(file, 'utf8');
const after = withRouteTable(before, restRoutes(appRouter));
if (after === before) console.log('docs/api.md is current');
else {
  fs.writeFileSync(file, after);
  console.log('docs/api.md updated');
}
