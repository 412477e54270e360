import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/auth/tokens';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import type { Micros } from '../../src/shared/money';
import { compiledQuery } from '../../src/server/db/hot-read';
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

describe('statements compiled once (db/hot-read.ts compiledQuery)', () => {
  const usersFrom = compiledQuery((db: Deps['db'], userId: number, limit: number) =>
    db.selectFrom('users').select(['id', 'username', 'referrer']).where('id', '>=', userId).orderBy('id').limit(limit),
  );
  const setReferrer = compiledQuery((db: Deps['db'], id: number, referrer: string) =>
    db.updateTable('users').set({ referrer }).where('id', '=', id),
  );

  it('runs with each call’s own arguments the same rows Kysely’s query gives', async () => {
    const other = await freshUser(d.deps, { prefix: 'hotread2' });
    for (const [from, limit] of [
      [u.id, 1],
      [u.id, 5],
      [other.id, 2],
    ]) {
      const built = await d.db
        .selectFrom('users')
        .select(['id', 'username', 'referrer'])
        .where('id', '>=', from)
        .orderBy('id')
        .limit(limit)
        .execute();
      expect(built.length).toBeGreaterThan(0);
      expect((await usersFrom(d.db, from, limit)).rows).toEqual(built);
    }
  });

  it('runs on a transaction’s connection: it sees that transaction’s writes, which a rollback undoes', async () => {
    const before = (await usersFrom(d.db, u.id, 1)).rows[0]!.referrer;
    await expect(
      d.db.transaction().execute(async (trx) => {
        expect(Number((await setReferrer(trx, u.id, 'compiled-once')).numAffectedRows)).toBe(1);
        expect((await usersFrom(trx, u.id, 1)).rows[0]!.referrer).toBe('compiled-once');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await usersFrom(d.db, u.id, 1)).rows[0]!.referrer).toBe(before);
  });

  it('refuses a statement where an argument is not a bound parameter', async () => {
    const unbound = compiledQuery((db: Deps['db'], id: number, _unused: string) =>
      db.selectFrom('users').select('id').where('id', '=', id),
    );
    await expect(async () => unbound(d.db, u.id, 'x')).rejects.toThrow(
      /compiledQuery: an argument is not a bound parameter/,
    );
  });
});
