import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { logOperatorAction, systemActor } from '../../src/server/operator/log';
import { makeDeps, type Deps } from '../support/caller';

// Attack finding: a customer's delete reason (1,000 characters, line breaks allowed) went
// into the operator log, and `nodekeep log` printed it as it was: one delete printed
// entries that never happened ("CLI (root) (cli)  billing adjust: user #7; amount
// $5000.00"). Customers' words now stay inside their one line, escaped, in every listing
// that shows them.

let d: Deps;
beforeAll(async () => (d = await makeDeps()));
afterAll(() => d?.close());

async function cli(...args: string[]) {
  const out: string[] = [];
  const code = await runCli(args, { DATA_DIR: d.deps.config.dataDir }, { out: (l) => out.push(l) });
  return { code, lines: out.flatMap((l) => l.split('\n')) };
}

const FORGED = '2026-11-29 12:00:00 UTC  CLI (root) (cli)  billing adjust: user #7; amount $5000.00';

it('prints one log entry as one line, whatever its reason holds', async () => {
  await logOperatorAction(d.db, systemActor('user 7'), 'node destroy', {
    node: 'dash-0123456789',
    reason: `No longer needed\n${FORGED}\r\n\u2028\tthe end`,
  });
  const { code, lines } = await cli('log', '--action', 'node destroy', '--limit', '1');
  expect(code).toBe(0);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`No longer needed\\x0a${FORGED}\\x0d\\x0a\\u2028\\x09the end`);
});

it('prints a failed job as one row, whatever its error quotes', async () => {
  const now = Date.now();
  await d.db
    .insertInto('jobs')
    .values({
      name: 'notify.channel',
      key: 'k-forged',
      payload: '{}',
      state: 'failed',
      run_at: now,
      owner: null,
      last_error: `webhook answered 500: oops\n99\tfake.job\t1\t2026-11-29T00:00:00.000Z\tall fine`,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const { code, lines } = await cli('jobs', 'failed');
  expect(code).toBe(0);
  expect(lines).toHaveLength(2);
  expect(lines[1].split('\t')).toHaveLength(5);
  expect(lines[1]).toContain('oops\\x0a99\\x09fake.job');
});
