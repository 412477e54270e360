import { sql, type Kysely, type RawBuilder, type Updateable } from 'kysely';
import type { Database, EmailTokenKind, UsersTable } from '../db/schema';
import { hotRead } from '../db/hot-read';

type Q = Kysely<Database>;

/** Usernames and emails are unique ignoring case: these keys carry the unique index. */
export const userKey = (s: string) => s.trim().toLowerCase();

export function findUserById(db: Q, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The usernames of these users, by id (an unknown id is absent). */
export async function usernamesByIds(db: Q, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}

export function findUserByLogin(db: Q, login: string) {
  const key = userKey(login);
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_key', '=', key), eb('email_key', '=', key)]))
    .executeTakeFirst();
}

export function findUserByEmail(db: Q, email: string) {
  return db.selectFrom('users').selectAll().where('email_key', '=', userKey(email)).executeTakeFirst();
}

/** Is the username an account's, or held by a registration that created none (until its hold expires)? Is the email an account's? */
export async function usernameOrEmailTaken(db: Q, username: string, email: string, now = Date.now()) {
  const rows = await db
    .selectFrom('users')
    .select(['username_key', 'email_key'])
    .where((eb) => eb.or([eb('username_key', '=', userKey(username)), eb('email_key', '=', userKey(email))]))
    .execute();
  return {
    username: rows.some((r) => r.username_key === userKey(username)) || (await usernameHeld(db, username, now)),
    email: rows.some((r) => r.email_key === userKey(email)),
  };
}

/** A hold on the username that has not expired yet. */
export async function usernameHeld(db: Q, username: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('username_holds')
    .select('username_key')
    .where('username_key', '=', userKey(username))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Holds the username until `expiresAt` (an expired hold not pruned yet is renewed). */
export async function holdUsername(db: Q, username: string, expiresAt: number): Promise<void> {
  await db
    .insertInto('username_holds')
    .values({ username_key: userKey(username), expires_at: expiresAt })
    .onConflict((oc) => oc.column('username_key').doUpdateSet({ expires_at: expiresAt }))
    .execute();
}

/** Deletes holds that expired before `before` (housekeeping), at most `limit` rows. */
export async function pruneUsernameHolds(db: Q, before: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('username_holds')
    .where('username_key', 'in', (eb) =>
      eb.selectFrom('username_holds').select('username_key').where('expires_at', '<=', before).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The id of the account with this username (any case), for resolving a referral code. */
export async function findUserIdByUsername(db: Q, username: string): Promise<number | null> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', userKey(username))
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertUser(
  db: Q,
  u: {
    username: string;
    email: string;
    password_hash: string;
    referrer: string | null;
    referrer_id: number | null;
    room_id: string;
    qr_key: string;
    registered_ip?: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ ...u, username_key: userKey(u.username), email_key: userKey(u.email), created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updateUser(db: Q, id: number, patch: Updateable<UsersTable>) {
  return db.updateTable('users').set(patch).where('id', '=', id).execute();
}

export function listUsers(db: Q) {
  return db.selectFrom('users').selectAll().orderBy('id').execute();
}

// Sessions
export function insertSession(
  db: Q,
  s: { user_id: number; token_hash: string; ip: string; user_agent: string; expires_at: number },
) {
  const now = Date.now();
  return db
    .insertInto('sessions')
    .values({ ...s, created_at: now, last_used_at: now })
    .execute();
}

/**
 * The addresses an account is known from: where it registered and where its sessions
 * (kept a week after they end) logged in. For the referral bonus's shared-address check.
 */
export async function knownAddresses(db: Q, userId: number): Promise<string[]> {
  const [user, sessions] = await Promise.all([
    db.selectFrom('users').select('registered_ip').where('id', '=', userId).executeTakeFirst(),
    db.selectFrom('sessions').select('ip').distinct().where('user_id', '=', userId).execute(),
  ]);
  return [...(user?.registered_ip ? [user.registered_ip] : []), ...sessions.map((r) => r.ip)];
}

/** Whether the user ever had a session (kept a week after it ends), and one from `ip`. */
export async function loginHistory(db: Q, userId: number, ip: string): Promise<{ any: boolean; fromIp: boolean }> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>(eb.case().when('ip', '=', ip).then(1).else(0).end()).as('from_ip'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { any: Number(row.n) > 0, fromIp: Number(row.from_ip ?? 0) > 0 };
}

/** The live session for a token hash together with its user's row, in one query. */
/** Every request's session lookup: compiled once, read from the committed state (db/hot-read.ts). */
const liveSessionWithUser = hotRead((db: Q, tokenHash: string, now: number) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select([
      's.id as session_id',
      's.created_at as session_created_at',
      's.last_used_at',
      's.expires_at',
      's.ip',
      's.user_agent',
      's.token_hash',
      's.revoked_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now),
);

export async function findLiveSessionWithUser(db: Q, tokenHash: string, now: number) {
  const row = await liveSessionWithUser(db, tokenHash, now);
  if (!row) return undefined;
  const { session_id, session_created_at, last_used_at, expires_at, ip, user_agent, token_hash, revoked_at, ...user } =
    row;
  return {
    user,
    session: {
      id: session_id,
      user_id: user.id,
      created_at: session_created_at,
      last_used_at,
      expires_at,
      ip,
      user_agent,
      token_hash,
      revoked_at,
    },
  };
}

/** The counter triggers move on every change that may end a session (migration 1530); one tiny read per request. */
const authEpochRead = hotRead((db: Q) => db.selectFrom('auth_epoch').select('n').where('id', '=', 1));

export async function authEpoch(db: Q): Promise<number> {
  return (await authEpochRead(db))?.n ?? 0;
}

export function touchSession(db: Q, id: number, now: number, expiresAt: number) {
  return db.updateTable('sessions').set({ last_used_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
}

/** Revokes one session; the ids actually revoked (none if it already was). */
export async function revokeSession(db: Q, id: number): Promise<number[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: Date.now() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Revokes every live session of the user except `keepId` (if given); the ids revoked. */
export async function revokeUserSessions(db: Q, userId: number, keepId?: number): Promise<number[]> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: Date.now() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepId !== undefined) q = q.where('id', '!=', keepId);
  const rows = await q.returning('id').execute();
  return rows.map((r) => r.id);
}

/** Revokes the user's live sessions beyond the newest `keep`; the ids revoked. */
export async function revokeSessionsBeyond(db: Q, userId: number, keep: number, now: number): Promise<number[]> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('id', 'desc')
        .limit(keep),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** True while the session is neither revoked nor expired and its user is enabled. */
export async function isSessionLive(
  db: Q,
  sessionId: number,
  now: number,
): Promise<{ expires_at: number } | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select('s.expires_at')
    .where('s.id', '=', sessionId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst();
}

export function listUserSessions(db: Q, userId: number) {
  return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

// Email tokens (verification and reset links)
export function insertEmailToken(
  db: Q,
  t: { user_id: number; kind: EmailTokenKind; token_hash: string; expires_at: number },
) {
  return db
    .insertInto('email_tokens')
    .values({ ...t, created_at: Date.now() })
    .execute();
}

export function findUsableEmailToken(db: Q, kind: EmailTokenKind, tokenHash: string, now: number) {
  return db
    .selectFrom('email_tokens')
    .selectAll()
    .where('kind', '=', kind)
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks one token used; returns false if somebody used it first. */
export async function consumeEmailToken(db: Q, id: number): Promise<boolean> {
  const r = await db
    .updateTable('email_tokens')
    .set({ used_at: Date.now() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Voids every open token of a kind (a new reset link or a changed password voids the old ones). */
export function voidEmailTokens(db: Q, userId: number, kind: EmailTokenKind) {
  return db
    .updateTable('email_tokens')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .execute();
}

/** Records a visit and keeps only the user's newest `keep` visits, in one transaction. */
export async function recordVisit(db: Q, userId: number, path: string, keep: number) {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('page_visits').values({ user_id: userId, path, at: Date.now() }).execute();
    await trx
      .deleteFrom('page_visits')
      .where('user_id', '=', userId)
      .where('id', 'not in', (eb) =>
        eb.selectFrom('page_visits').select('id').where('user_id', '=', userId).orderBy('id', 'desc').limit(keep),
      )
      .execute();
  });
}

// Two-factor codes: conditional updates, so parallel requests never act on a stale row.

/** Marks a code's time step used, if it is newer than the last one and 2FA is not locked. */
export async function claimTfaStep(db: Q, userId: number, step: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ tfa_last_step: step, tfa_failures: 0 })
    .where('id', '=', userId)
    .where('tfa_last_step', '<', step)
    .where('tfa_locked_until', '<=', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Counts one wrong code in SQL; the `max`-th locks 2FA until `now + lockMs`. Returns
 * 'counted', 'locked' (this one locked it) or 'already-locked' (nothing counted).
 */
export async function countTfaFailure(
  db: Q,
  userId: number,
  max: number,
  now: number,
  lockMs: number,
): Promise<'counted' | 'locked' | 'already-locked'> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({
      tfa_failures: sql<number>`case when ${eb.ref('tfa_failures')} + 1 >= ${max} then 0 else ${eb.ref('tfa_failures')} + 1 end`,
      tfa_locked_until: sql<number>`case when ${eb.ref('tfa_failures')} + 1 >= ${max} then ${now + lockMs} else ${eb.ref('tfa_locked_until')} end`,
    }))
    .where('id', '=', userId)
    .where('tfa_locked_until', '<=', now)
    .returning('tfa_locked_until')
    .executeTakeFirst();
  if (!row) return 'already-locked';
  return row.tfa_locked_until > now ? 'locked' : 'counted';
}

export function tfaState(db: Q, userId: number) {
  return db
    .selectFrom('users')
    .select(['tfa_last_step', 'tfa_locked_until'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

// Pruning (the housekeeping job), in batches so no delete holds the writer long.
/**
 * Sessions that can no longer sign anyone in: expired, or revoked (logout, password
 * change), before `endedBefore`. Deletes up to `limit`; returns how many.
 */
export async function pruneEndedSessions(db: Q, endedBefore: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('sessions')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where((w) => w.or([w('expires_at', '<', endedBefore), w('revoked_at', '<', endedBefore)]))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Page visits before `before`; up to `limit`. */
export async function prunePageVisits(db: Q, before: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('page_visits')
    .where('id', 'in', (eb) =>
      eb.selectFrom('page_visits').select('id').where('at', '<', before).orderBy('id').limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Customer accounts (operators aside) by state, for /metrics: verified, unverified (no email check yet), disabled. */
export async function customerCounts(db: Q): Promise<{ verified: number; unverified: number; disabled: number }> {
  const row = await db
    .selectFrom('users')
    .select([
      sql<number>`count(*) FILTER (WHERE disabled_at IS NULL AND verified_at IS NOT NULL)`.as('verified'),
      sql<number>`count(*) FILTER (WHERE disabled_at IS NULL AND verified_at IS NULL)`.as('unverified'),
      sql<number>`count(*) FILTER (WHERE disabled_at IS NOT NULL)`.as('disabled'),
    ])
    .where('role', '=', 'customer')
    .executeTakeFirstOrThrow();
  return { verified: Number(row.verified), unverified: Number(row.unverified), disabled: Number(row.disabled) };
}

/** Users with the operator role who can be told something (not disabled). */
export async function operatorIds(db: Q): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'operator')
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The operator's customer search: an id (42 or #42), or a part of a username or email
 * (case-insensitive, `%` and `_` taken literally). Newest accounts first, `limit` rows.
 */
export function searchUsers(db: Q, text: string, limit: number) {
  const t = text.trim();
  const id = /^#?(\d{1,12})$/.exec(t);
  const like = `%${userKey(t).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...(id ? [eb('id', '=', Number(id[1]))] : []),
        sql<boolean>`username_key LIKE ${like} ESCAPE '\\'`,
        sql<boolean>`email_key LIKE ${like} ESCAPE '\\'`,
      ]),
    )
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The newest accounts first: what the console's Customers page lists before a search. */
export function newestUsers(db: Q, limit: number) {
  return db.selectFrom('users').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** How many users came through this referrer's link (`users.referrer_id`, fixed at registration). */
export async function referredCount(db: Kysely<Database>, referrerId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('n'))
    .where('referrer_id', '=', referrerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The username of the user whose id is in `idColumn` (a column, or an expression; null when none), as a subquery for
 * another domain's list: it names its rows' users without reading the users table itself.
 */
export function usernameOf(idColumn: string | RawBuilder<number>): RawBuilder<string | null> {
  const id = typeof idColumn === 'string' ? sql.ref(idColumn) : idColumn;
  return sql<string | null>`(SELECT username FROM users WHERE users.id = ${id})`;
}

/** The ids of the users `referrerId` brought, as a subquery (nodes counts them). */
export function referredUserIds(db: Q, referrerId: number) {
  return db.selectFrom('users').select('id').where('referrer_id', '=', referrerId);
}

/** The ids of the users whose username or email matches the LIKE pattern `like` (escaped with \), as a subquery. */
export function userIdsMatching(like: string): RawBuilder<number> {
  return sql<number>`(SELECT id FROM users WHERE username LIKE ${like} ESCAPE '\\' OR email LIKE ${like} ESCAPE '\\')`;
}

/** The users a referrer brought (created_at, username, id), as a subquery for referrals' history. */
export function referredUsersSql(referrerId: number): RawBuilder<unknown> {
  return sql`SELECT created_at, username, id FROM users WHERE referrer_id = ${referrerId}`;
}

/** The highest user id (0 with none): where the reminders' windows end. */
export async function lastUserId(db: Q): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(sql<number | null>`max(id)`.as('id'))
    .executeTakeFirstOrThrow();
  return Number(row.id ?? 0);
}

/** Whether any account holds the operator role (disabled or not): the first-run link is for none. */
export async function anyOperator(db: Q): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('role', '=', 'operator').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The first-run token's row by its hash, expired or not (the page says which). */
export function findSetupToken(db: Q, tokenHash: string) {
  return db.selectFrom('setup_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function hasLiveSetupToken(db: Q, now: number): Promise<boolean> {
  const row = await db.selectFrom('setup_tokens').select('token_hash').where('expires_at', '>', now).executeTakeFirst();
  return row !== undefined;
}

export async function insertSetupToken(
  db: Q,
  t: { token_hash: string; tfa_secret: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('setup_tokens').values(t).execute();
}

/** Uses the token: true for exactly one caller while it is live (the row goes). */
export async function consumeSetupToken(db: Q, tokenHash: string, now: number): Promise<boolean> {
  const res = await db
    .deleteFrom('setup_tokens')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

export function deleteSetupTokens(db: Q) {
  return db.deleteFrom('setup_tokens').execute();
}
