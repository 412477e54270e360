import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/auth/tokens';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import type { Micros } from '../../src/shared/money';
import { callerFor } from '../support/users';
import { makeDeps, type Deps, rejection } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

let d: Deps;
let u: FreshUser;
beforeAll(async () => {
  d = await makeDeps();
  u = await freshUser(d.deps, { prefix: 'hotread' });
});
afterAll(() => d.close());

/** A transaction that holds the writer until `release()` (as a daily-charge chunk or a deposit does). */
function heldTransaction(write?: (trx: Deps['db']) => Promise<unknown>) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const done = d.db.transaction().execute(async (trx) => {
    if (write) await write(trx as unknown as Deps['db']);
    entered();
    await gate;
  });
  return { inside, release, done };
}

describe('the reads every request makes (db/hot-read.ts)', () => {
  it('answer while a transaction holds the writer, instead of queueing behind it', async () => {
    const t = heldTransaction();
    await t.inside;
    let ended = false;
    void t.done.then(() => (ended = true));
    // Old code: the profile's session lookup waited for the transaction; the release below never ran.
    const info = await callerFor(d.deps)(u.token).auth.get_common_info();
    expect(info.info.username).toBe(u.username);
    expect(ended).toBe(false);
    t.release();
    await t.done;
  });

  it('see only committed writes: a logout still in its transaction is not yet seen, and refuses the next request once committed', async () => {
    const other = await freshUser(d.deps, { prefix: 'hotread2' });
    const t = heldTransaction((trx) =>
      trx
        .updateTable('sessions')
        .set({ revoked_at: Date.now() })
        .where('token_hash', '=', hashToken(other.token))
        .execute(),
    );
    await t.inside;
    const during = await callerFor(d.deps)(other.token).auth.get_common_info();
    expect(during.success).toBe(true);
    t.release();
    await t.done;
    expect((await rejection(callerFor(d.deps)(other.token).auth.get_common_info())).code).toBe('UNAUTHORIZED');
  });

  it('a balance change shows on the next call', async () => {
    const before = (await callerFor(d.deps)(u.token).auth.get_common_info()).info.balance;
    await d.db.transaction().execute((trx) =>
      postTransfer(trx, {
        idempotencyKey: 'hot-read-credit',
        debit: PLATFORM.adjustments,
        credit: userAccount(u.id),
        amount: 2_500_000 as Micros,
        kind: 'adjustment',
        description: 'test',
      }),
    );
    const after = (await callerFor(d.deps)(u.token).auth.get_common_info()).info.balance;
    expect(after - before).toBeCloseTo(2.5, 6);
  });
});
