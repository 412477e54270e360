import type { Kysely } from 'kysely';
import type { CustomerProfile, CustomerSummary } from '../../shared/schemas/console-customers';
import { listUserSessions, newestUsers, searchUsers, findUserById } from '../auth/users';
import { accountBalance, userAccount } from '../billing/ledger';
import { userTransfers } from '../billing/transfers';
import type { Database, User } from '../db/schema';
import { fail } from '../kernel/errors';
import { listUserNodes } from '../nodes/read';
import { recentNotifications } from '../notifications/recent';

// The operator's read side of a customer (the console's Customers page). Each domain's
// data comes through that domain's queries; this folder owns no table.

const iso = (ms: number) => new Date(ms).toISOString();
const SEARCH_LIMIT = 50;

async function summary(db: Kysely<Database>, u: User): Promise<CustomerSummary> {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    verified: u.verified_at !== null,
    tfa: u.tfa_enabled === 1,
    disabled: u.disabled_at !== null,
    operator: u.role === 'operator',
    created_at: iso(u.created_at),
    balance_micros: await accountBalance(db, userAccount(u.id)),
  };
}

export async function searchCustomers(db: Kysely<Database>, q: string) {
  return summaries(db, await searchUsers(db, q, SEARCH_LIMIT + 1));
}

/** The newest customers, for the page before anything is searched. */
export async function newestCustomers(db: Kysely<Database>) {
  return summaries(db, await newestUsers(db, SEARCH_LIMIT + 1));
}

async function summaries(db: Kysely<Database>, rows: User[]) {
  return {
    customers: await Promise.all(rows.slice(0, SEARCH_LIMIT).map((u) => summary(db, u))),
    more: rows.length > SEARCH_LIMIT,
  };
}

export async function customerProfile(db: Kysely<Database>, userId: number): Promise<CustomerProfile> {
  const u = await findUserById(db, userId);
  if (!u) fail('NOT_FOUND', `No customer #${userId}.`);
  const [base, sessions, nodes, notes] = await Promise.all([
    summary(db, u),
    listUserSessions(db, u.id),
    listUserNodes(db, u.id),
    recentNotifications(db, u.id),
  ]);
  const now = Date.now();
  return {
    customer: {
      ...base,
      referrer: u.referrer,
      verified_at: u.verified_at === null ? null : iso(u.verified_at),
      disabled_at: u.disabled_at === null ? null : iso(u.disabled_at),
      live_sessions: sessions.filter((s) => !s.revoked_at && s.expires_at > now).length,
    },
    nodes: nodes.map((n) => ({
      id: n.id,
      mn_id: n.mn_id,
      coin_id: n.coin_id,
      alias: n.alias,
      package: n.package,
      state: n.state,
      status: n.status,
      server_ip: n.server_ip,
      daily_price_micros: n.hosting_price,
      created_at: iso(n.created_at),
    })),
    notifications: notes.map((n) => ({
      message: n.message,
      hour: n.hour,
      link: n.link,
      cleared: n.cleared_at !== null,
    })),
  };
}

export async function customerLedger(db: Kysely<Database>, userId: number, page: number, perPage: number) {
  if (!(await findUserById(db, userId))) fail('NOT_FOUND', `No customer #${userId}.`);
  const [{ rows, total }, balance] = await Promise.all([
    userTransfers(db, userId, page, perPage),
    accountBalance(db, userAccount(userId)),
  ]);
  return {
    balance_micros: balance,
    transfers: rows.map((r) => ({
      id: r.id,
      at: iso(r.created_at),
      kind: r.kind,
      description: r.description,
      amount_micros: r.signed,
    })),
    total,
  };
}
