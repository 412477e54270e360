import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Database, DepositCurrency, DepositsTable } from '../../db/schema';
import { usernameOf } from '../../auth/users';
import type { Insertable } from 'kysely';

type Q = Kysely<Database> | Transaction<Database>;

export function listCurrencies(db: Q, opts: { enabledOnly: boolean }) {
  let q = db.selectFrom('deposit_currencies').selectAll();
  if (opts.enabledOnly) q = q.where('enabled', '=', 1);
  return q.orderBy('id').execute();
}

/** The price ids of the enabled currencies: each needs a fresh quote to credit its deposits. */
export async function depositPriceCoins(db: Q): Promise<string[]> {
  const rows = await db
    .selectFrom('deposit_currencies')
    .select('price_coin')
    .distinct()
    .where('enabled', '=', 1)
    .execute();
  return rows.map((r) => r.price_coin);
}

export function findCurrency(db: Q, id: string): Promise<DepositCurrency | undefined> {
  return db.selectFrom('deposit_currencies').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertCurrency(db: Q, row: Insertable<Database['deposit_currencies']>) {
  return db
    .insertInto('deposit_currencies')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
}

export function setCurrencyEnabled(db: Q, id: string, enabled: boolean) {
  return db
    .updateTable('deposit_currencies')
    .set({ enabled: enabled ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Takes the next derivation index (in the caller's immediate transaction: one writer, so no two takers get the same). */
export async function takeNextIndex(trx: Transaction<Database>, currencyId: string): Promise<number> {
  const row = await trx
    .updateTable('deposit_currencies')
    .set({ next_index: sql`next_index + 1` })
    .where('id', '=', currencyId)
    .returning(sql<number>`next_index - 1`.as('taken'))
    .executeTakeFirstOrThrow();
  return Number(row.taken);
}

/** Records an import of the range [0, importedTo); the next one rescans from `nextRescanFrom` (ms). */
export function setImported(db: Q, currencyId: string, importedTo: number, nextRescanFrom: number) {
  // The listing starts over: a rescan may have found payments in blocks before the cursor.
  return db
    .updateTable('deposit_currencies')
    .set({ imported_to: importedTo, cursor: null, watch_from: nextRescanFrom })
    .where('id', '=', currencyId)
    .where('imported_to', '<', importedTo)
    .execute();
}

export function setCursor(db: Q, currencyId: string, cursor: string | null) {
  return db.updateTable('deposit_currencies').set({ cursor }).where('id', '=', currencyId).execute();
}

export function userAddresses(db: Q, userId: number) {
  return db.selectFrom('deposit_addresses').select(['currency_id', 'address']).where('user_id', '=', userId).execute();
}

export function findAddress(db: Q, currencyId: string, userId: number) {
  return db
    .selectFrom('deposit_addresses')
    .select(['address', 'idx'])
    .where('currency_id', '=', currencyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** False when the user already has one (a concurrent request made it first). */
export async function insertAddress(
  db: Q,
  row: { currency_id: string; user_id: number; address: string; idx: number },
): Promise<boolean> {
  const r = await db
    .insertInto('deposit_addresses')
    .values({ ...row, created_at: Date.now() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Owners of the given addresses of a currency. */
export async function ownersOf(db: Q, currencyId: string, addresses: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < addresses.length; i += 500) {
    const rows = await db
      .selectFrom('deposit_addresses')
      .select(['address', 'user_id'])
      .where('currency_id', '=', currencyId)
      .where('address', 'in', addresses.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.address, r.user_id);
  }
  return out;
}

export function depositsInState(db: Q, currencyId: string, states: Array<DepositsTable['state']>) {
  return db
    .selectFrom('deposits')
    .selectAll()
    .where('currency_id', '=', currencyId)
    .where('state', 'in', states)
    .execute();
}

export function findDeposit(db: Q, currencyId: string, txid: string, vout: number) {
  return db
    .selectFrom('deposits')
    .selectAll()
    .where('currency_id', '=', currencyId)
    .where('txid', '=', txid)
    .where('vout', '=', vout)
    .executeTakeFirst();
}

export function insertDeposit(db: Q, row: Insertable<DepositsTable>) {
  return db
    .insertInto('deposits')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
}

export function updateDeposit(
  db: Q,
  id: number,
  set: Partial<Pick<DepositsTable, 'confirmations' | 'state' | 'usd_micros'>>,
) {
  return db
    .updateTable('deposits')
    .set({ ...set, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

/** The user's deposits seen and not yet credited, the 50 newest first, with their currency's label and threshold. */
export function pendingOf(db: Q, userId: number) {
  return (
    db
      .selectFrom('deposits')
      .innerJoin('deposit_currencies as c', 'c.id', 'deposits.currency_id')
      .select([
        'c.label',
        'c.confirmations as max_confirmations',
        'c.decimals',
        'deposits.confirmations',
        'deposits.amount',
        'deposits.seen_at',
      ])
      .where('deposits.user_id', '=', userId)
      .where('deposits.state', '=', 'pending')
      .orderBy('deposits.id', 'desc')
      // Anyone can pay an address many small outputs: the list stays a page (as card sessions do).
      .limit(50)
      .execute()
  );
}

/** Deposits in one state, for /metrics (a range of the `deposits_state` index). */
export async function depositCount(db: Q, state: DepositsTable['state']): Promise<number> {
  const row = await db
    .selectFrom('deposits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', state)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The newest deposits of every user (the operator's list), optionally in one state. */
export function listAllDeposits(db: Q, state: DepositsTable['state'] | undefined, limit: number) {
  let q = db
    .selectFrom('deposits')
    .select([
      'deposits.id',
      'deposits.currency_id',
      'deposits.user_id',
      usernameOf('deposits.user_id').as('username'),
      'deposits.txid',
      'deposits.amount',
      'deposits.confirmations',
      'deposits.state',
      'deposits.usd_micros',
      'deposits.seen_at',
    ]);
  if (state) q = q.where('deposits.state', '=', state);
  return q.orderBy('deposits.id', 'desc').limit(limit).execute();
}
