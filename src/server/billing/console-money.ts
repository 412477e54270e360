import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { listAllCardSessions } from './card/queries';
import { DAY_MS } from './charge-days';
import { listAllDeposits, listCurrencies } from './crypto/queries';
import { chargeTotalsByDay, listChargeDays, listOpenDebts } from './queries';

// The console's Money page, read side: lists over every customer. The actions (gift
// codes, currencies) are in coupons/admin.ts and crypto/admin.ts, shared with the CLI.

const iso = (ms: number) => new Date(ms).toISOString();
const LIST_LIMIT = 200;
const RUN_DAYS = 60;

export async function cardSessionsList(db: Kysely<Database>, status?: 'pending' | 'paid' | 'cancelled' | 'expired') {
  const rows = await listAllCardSessions(db, status, LIST_LIMIT);
  return {
    sessions: rows.map((r) => ({
      id: r.id,
      user_id: r.user_id,
      username: r.username,
      amount_micros: r.amount,
      status: r.status,
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    })),
  };
}

/** Customers who owe money after a card payment was taken back. */
export async function debtsList(db: Kysely<Database>) {
  const rows = await listOpenDebts(db, LIST_LIMIT);
  return { debts: rows.map((r) => ({ user_id: r.user_id, username: r.username, owed_micros: r.owed })) };
}

export async function depositsList(db: Kysely<Database>, state?: 'pending' | 'credited' | 'below_minimum' | 'removed') {
  const rows = await listAllDeposits(db, state, LIST_LIMIT);
  return {
    deposits: rows.map((r) => ({
      id: r.id,
      currency_id: r.currency_id,
      user_id: r.user_id,
      username: r.username,
      txid: r.txid,
      amount: r.amount,
      confirmations: r.confirmations,
      state: r.state,
      usd_micros: r.usd_micros,
      seen_at: iso(r.seen_at),
    })),
  };
}

/** The deposit currencies, enabled or not, without their secrets. */
export async function currenciesList(db: Kysely<Database>) {
  const rows = await listCurrencies(db, { enabledOnly: false });
  return {
    currencies: rows.map((c) => ({
      id: c.id,
      label: c.label,
      ticker: c.ticker,
      kind: c.kind,
      enabled: c.enabled === 1,
      confirmations: c.confirmations,
      minimum_micros: c.minimum,
      rpc_url: c.rpc_url,
      addresses: c.next_index,
    })),
  };
}

/**
 * The daily charge's runs of the last 60 days (`charge_days`: started, completed,
 * reminders) beside what the ledger holds for each UTC day: the `daily_charge` and
 * `initial_charge` transfers posted that day. A day with charges but no run (initial
 * charges only, or a day before the run table) still shows.
 */
export async function chargeRunsList(db: Kysely<Database>, now = Date.now()) {
  const from = Math.floor(now / DAY_MS) * DAY_MS - (RUN_DAYS - 1) * DAY_MS;
  const [runs, totals] = await Promise.all([listChargeDays(db, RUN_DAYS), chargeTotalsByDay(db, from)]);
  const days = new Map<
    string,
    {
      day: string;
      started_at: string | null;
      completed_at: string | null;
      reminded_at: string | null;
      daily_micros: number;
      daily_transfers: number;
      initial_micros: number;
      initial_transfers: number;
    }
  >();
  const at = (day: string) => {
    let d = days.get(day);
    if (!d)
      days.set(
        day,
        (d = {
          day,
          started_at: null,
          completed_at: null,
          reminded_at: null,
          daily_micros: 0,
          daily_transfers: 0,
          initial_micros: 0,
          initial_transfers: 0,
        }),
      );
    return d;
  };
  for (const r of runs)
    Object.assign(at(r.day), {
      started_at: iso(r.started_at),
      completed_at: r.completed_at === null ? null : iso(r.completed_at),
      reminded_at: r.reminded_at === null ? null : iso(r.reminded_at),
    });
  for (const t of totals) {
    const d = at(t.day);
    if (t.kind === 'daily_charge') Object.assign(d, { daily_micros: t.total, daily_transfers: t.count });
    else Object.assign(d, { initial_micros: t.total, initial_transfers: t.count });
  }
  return { days: [...days.values()].sort((a, b) => b.day.localeCompare(a.day)).slice(0, RUN_DAYS) };
}
