import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { compiledQuery } from '../db/hot-read';
import { chargedNodesByUserIndex, nodesChargedOn, ownerOfNode } from '../nodes/charged';

type Q = Kysely<Database>;

/** Where a day's charge stands: the last (owner, node) charged. */
export type ChargeCursor = { user: number; node: number };

const inRange = (after: ChargeCursor, upTo: ChargeCursor) =>
  sql<boolean>`(user_id, id) > (${after.user}, ${after.node}) AND (user_id, id) <= (${upTo.user}, ${upTo.node})`;

// The per-chunk statements below are compiled once (db/hot-read.ts `compiledQuery`): a
// day of a million nodes runs each of them a thousand times, and Kysely building them
// again each time was about a tenth of the charge's time (docs/benchmarks.md).
const chargedAfter = (db: Q, start: number, afterUser: number, afterNode: number) =>
  nodesChargedOn(db, start)
    .select(['user_id', 'id'])
    .where(sql<boolean>`(user_id, id) > (${afterUser}, ${afterNode})`);
const firstAfter = compiledQuery((db: Q, start: number, afterUser: number, afterNode: number, offset: number) =>
  chargedAfter(db, start, afterUser, afterNode).orderBy('user_id').orderBy('id').limit(1).offset(offset),
);
const lastAfter = compiledQuery((db: Q, start: number, afterUser: number, afterNode: number) =>
  chargedAfter(db, start, afterUser, afterNode).orderBy('user_id', 'desc').orderBy('id', 'desc').limit(1),
);

/**
 * Where the next chunk ends: about `size` nodes after `after`, whole owners (an owner's
 * nodes are charged together, in one transfer), except an owner with more than `size`
 * nodes, who comes alone, `size` nodes at a time. Null when no node is left. Three
 * seeks in the index; no node is read out.
 */
export async function nextChunkEnd(
  db: Q,
  start: number,
  after: ChargeCursor,
  size: number,
): Promise<ChargeCursor | null> {
  const [first] = (await firstAfter(db, start, after.user, after.node, 0)).rows;
  if (!first) return null;
  const [nth] = (await firstAfter(db, start, after.user, after.node, size - 1)).rows;
  if (!nth) {
    const [last] = (await lastAfter(db, start, after.user, after.node)).rows;
    return { user: last!.user_id, node: last!.id };
  }
  // The chunk would cut the owner of its last node short: they start the next one (unless they are all of this one).
  return nth.user_id === first.user_id
    ? { user: nth.user_id, node: nth.id }
    : { user: nth.user_id - 1, node: Number.MAX_SAFE_INTEGER };
}

/** A node's fee for a day, as `node_charges` keeps it. */
export type NodeFee = { user_id: number; node_id: number; amount: number };

/** One owner's fees in a chunk: how many, their sum, the first (oldest) node. */
export type OwnerFees = { user_id: number; nodes: number; amount: number; first_node: number };

const feesInRange = (db: Q, day: string, after: ChargeCursor, upTo: ChargeCursor) =>
  db
    .selectFrom('node_charges')
    .where('day', '=', day)
    .where(
      sql<boolean>`(user_id, node_id) > (${after.user}, ${after.node}) AND (user_id, node_id) <= (${upTo.user}, ${upTo.node})`,
    );

/** A chunk's range as separate arguments, for the compiled statements. */
type Range = [afterUser: number, afterNode: number, upToUser: number, upToNode: number];
const range = (after: ChargeCursor, upTo: ChargeCursor): Range => [after.user, after.node, upTo.user, upTo.node];
const cursors = (...[afterUser, afterNode, upToUser, upToNode]: Range) => ({
  after: { user: afterUser, node: afterNode },
  upTo: { user: upToUser, node: upToNode },
});

const insertCharges = compiledQuery((db: Q, day: string, start: number, ...r: Range) => {
  const { after, upTo } = cursors(...r);
  return db
    .insertInto('node_charges')
    .columns(['day', 'user_id', 'node_id', 'amount'])
    .expression(
      nodesChargedOn(db, start)
        .select([sql<string>`${day}`.as('day'), 'user_id', 'id', 'hosting_price'])
        .where(inRange(after, upTo))
        .orderBy('user_id')
        .orderBy('id'),
    )
    .onConflict((oc) => oc.doNothing());
});

/**
 * Every fee owed for `day` in a chunk as a `node_charges` row, in one statement read
 * straight from the index; a fee written before (the key (day, owner, node)) is skipped.
 * Returns how many were written.
 */
export async function insertChunkCharges(
  db: Q,
  day: string,
  start: number,
  after: ChargeCursor,
  upTo: ChargeCursor,
): Promise<number> {
  const r = await insertCharges(db, day, start, ...range(after, upTo));
  return Number(r.numAffectedRows ?? 0);
}

/** The fees kept for `day` in a chunk's range (of the given owners only, when named), by owner then node. */
export function chunkFees(
  db: Q,
  day: string,
  after: ChargeCursor,
  upTo: ChargeCursor,
  userIds?: number[],
): Promise<NodeFee[]> {
  let q = feesInRange(db, day, after, upTo).select(['user_id', 'node_id', 'amount']);
  if (userIds) q = q.where('user_id', 'in', sql<number>`(SELECT value FROM json_each(${JSON.stringify(userIds)}))`);
  return q.orderBy('user_id').orderBy('node_id').execute();
}

const feeSums = compiledQuery((db: Q, day: string, ...r: Range) => {
  const { after, upTo } = cursors(...r);
  return feesInRange(db, day, after, upTo)
    .select([
      'user_id',
      sql<number>`count(*)`.as('nodes'),
      sql<number>`sum(amount)`.as('amount'),
      sql<number>`min(node_id)`.as('first_node'),
    ])
    .groupBy('user_id')
    .orderBy('user_id');
});

/** The fees kept for `day` in a chunk's range, summed per owner (read from the rows just written: hot pages). */
export async function chunkFeeSums(db: Q, day: string, after: ChargeCursor, upTo: ChargeCursor): Promise<OwnerFees[]> {
  return (await feeSums(db, day, ...range(after, upTo))).rows;
}

/** Takes back fees written in this transaction (owners who cannot pay them). */
export async function deleteNodeCharges(db: Q, day: string, fees: NodeFee[]): Promise<number> {
  if (!fees.length) return 0;
  const r = await sql`
    DELETE FROM node_charges WHERE day = ${day}
    AND (user_id, node_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${JSON.stringify(fees.map((f) => [f.user_id, f.node_id]))}))`.execute(
    db,
  );
  return Number(r.numAffectedRows ?? 0);
}

export type OwnerCharge = { userId: number; firstNodeId: number; amount: number; description: string };

/**
 * The owners' daily-charge transfers in one statement, keyed `daily:<day>:<owner>:<first
 * node of the chunk>`: new whenever its nodes' fees are (each is written once, in the same
 * transaction), so in practice one transfer per owner and day (a
 * batch `postTransfer`: same table and kind, the ledger's trigger moves both counters
 * per row and its CHECK refuses the statement if a balance would go below zero).
 * Returns how many were written; a key written before is skipped.
 */
export async function insertOwnerCharges(
  db: Q,
  day: string,
  charges: OwnerCharge[],
  now: number,
  revenue: string,
): Promise<number> {
  if (!charges.length) return 0;
  const r = await sql`
    INSERT INTO ledger_transfers (idempotency_key, debit_account, credit_account, amount, kind, description, created_at)
    SELECT 'daily:' || ${day} || ':' || (value ->> 0) || ':' || (value ->> 1), 'user:' || (value ->> 0), ${revenue}, value ->> 2, 'daily_charge', value ->> 3, ${now}
    FROM json_each(${JSON.stringify(charges.map((c) => [c.userId, c.firstNodeId, c.amount, c.description]))}) WHERE true
    ON CONFLICT (idempotency_key) DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

const chargeDayRow = compiledQuery((db: Q, day: string) =>
  db.selectFrom('charge_days').selectAll().where('day', '=', day),
);

export async function chargeDay(db: Q, day: string) {
  return (await chargeDayRow(db, day)).rows[0];
}

/** Starts a day's record (once; a second runner finds it there). */
export async function openChargeDay(db: Q, day: string, now: number): Promise<void> {
  await db
    .insertInto('charge_days')
    .values({ day, started_at: now })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
}

const setCursor = compiledQuery((db: Q, day: string, user: number, node: number) =>
  db.updateTable('charge_days').set({ cursor: user, cursor_node: node }).where('day', '=', day),
);

export async function moveChargeCursor(db: Q, day: string, to: ChargeCursor): Promise<void> {
  await setCursor(db, day, to.user, to.node);
}

export async function completeChargeDay(db: Q, day: string, now: number): Promise<void> {
  await db
    .updateTable('charge_days')
    .set({ completed_at: now })
    .where('day', '=', day)
    .where('completed_at', 'is', null)
    .execute();
}

export async function markReminded(db: Q, day: string, now: number): Promise<void> {
  await db.updateTable('charge_days').set({ reminded_at: now }).where('day', '=', day).execute();
}

/** Where a run begins: the day after the newest completed one, else the oldest begun, else null (never ran). */
export async function firstOpenDay(db: Q): Promise<{ afterCompleted: string | null; oldestOpen: string | null }> {
  const row = await db
    .selectFrom('charge_days')
    .select([
      sql<string | null>`max(case when completed_at is not null then day end)`.as('done'),
      sql<string | null>`min(case when completed_at is null then day end)`.as('open'),
    ])
    .executeTakeFirstOrThrow();
  return { afterCompleted: row.done, oldestOpen: row.open };
}

export type LowBalance = { user_id: number; daily: number; balance: number };

/**
 * Users with ids in (after, upTo] whose balance is below `days` days of their charged
 * nodes' fees: the candidates for a low-balance reminder. A window of user ids, not a
 * LIMIT: each read covers a bounded slice of the nodes, so none holds the event loop
 * (better-sqlite3 reads synchronously) for long.
 */
export function lowBalances(db: Q, days: number, after: number, upTo: number): Promise<LowBalance[]> {
  return chargedNodesByUserIndex(db)
    .leftJoin('ledger_accounts as a', (j) => j.on(sql<boolean>`a.account = 'user:' || n.user_id`))
    .select([
      'n.user_id',
      sql<number>`sum(n.hosting_price)`.as('daily'),
      sql<number>`coalesce(max(a.credits - a.debits), 0)`.as('balance'),
    ])
    .where('n.user_id', '>', after)
    .where('n.user_id', '<=', upTo)
    .groupBy('n.user_id')
    .having(sql<boolean>`coalesce(max(a.credits - a.debits), 0) < ${days} * sum(n.hosting_price)`)
    .orderBy('n.user_id')
    .execute();
}

/**
 * True for the first reminder of the user's day, and for a later one that day that first
 * says the balance no longer covers the next charge (`short`); false otherwise.
 */
export async function claimReminder(db: Q, userId: number, day: string, now: number, short = false): Promise<boolean> {
  const r = await db
    .insertInto('balance_reminders')
    .values({ user_id: userId, day, at: now, short: short ? 1 : 0 })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'day'])
        .doUpdateSet({ at: now, short: 1 })
        .where(sql<boolean>`balance_reminders.short = 0 AND excluded.short = 1`),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

export type ChargeMismatch = { user_id: number; day: string; transfers: number; fees: number };

/**
 * Owner-days whose daily-charge transfers differ from the sum of their nodes' fees in
 * `node_charges` (empty when whole): `daily:<day>:<user>:<node>` transfers, plus the per-node
 * `charge:<node>:<day>` ones of days charged before fees were kept per owner. For tests,
 * the benchmark and the operator's checks.
 */
export async function chargeMismatches(db: Q): Promise<ChargeMismatch[]> {
  // One pass, grouped, no joins: SQLite may loop a joined table inside the other (1M x 1M).
  const { rows } = await sql<ChargeMismatch>`
    SELECT user_id, day, sum(t) AS transfers, sum(f) AS fees FROM (
      SELECT CAST(substr(idempotency_key, 18, instr(substr(idempotency_key, 18), ':') - 1) AS INTEGER) AS user_id, substr(idempotency_key, 7, 10) AS day, amount AS t, 0 AS f
      FROM ledger_transfers WHERE kind = 'daily_charge' AND idempotency_key LIKE 'daily:%'
      UNION ALL
      SELECT ${ownerOfNode(sql`CAST(substr(idempotency_key, 8, length(idempotency_key) - 18) AS INTEGER)`)}, substr(idempotency_key, -10), amount, 0
      FROM ledger_transfers WHERE kind = 'daily_charge' AND idempotency_key LIKE 'charge:%'
      UNION ALL
      SELECT user_id, day, 0, amount FROM node_charges
    )
    GROUP BY user_id, day
    HAVING sum(t) != sum(f)`.execute(db);
  return rows;
}

/** Whether the operators were told that `day`'s charge is late. */
export async function lateAlertSent(db: Q, day: string): Promise<boolean> {
  const row = await db.selectFrom('charge_late_alerts').select('day').where('day', '=', day).executeTakeFirst();
  return row !== undefined;
}

/** Records that the operators were told `day` is late; false when they already were. */
export async function recordLateAlert(db: Q, day: string, now: number): Promise<boolean> {
  const res = await db
    .insertInto('charge_late_alerts')
    .values({ day, alerted_at: now })
    .onConflict((oc) => oc.column('day').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}
