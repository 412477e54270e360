import type { Kysely, Updateable } from 'kysely';
import type { Database, EmailTokenKind, UsersTable } from '../db/schema';

type Q = Kysely<Database>;

/** Usernames and emails are unique ignoring case: these keys carry the unique index. */
export const userKey = (s: string) => s.trim().toLowerCase();

export function findUserById(db: Q, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
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

export async function usernameOrEmailTaken(db: Q, username: string, email: string) {
  const rows = await db
    .selectFrom('users')
    .select(['username_key', 'email_key'])
    .where((eb) => eb.or([eb('username_key', '=', userKey(username)), eb('email_key', '=', userKey(email))]))
    .execute();
  return {
    username: rows.some((r) => r.username_key === userKey(username)),
    email: rows.some((r) => r.email_key === userKey(email)),
  };
}

export async function insertUser(
  db: Q,
  u: { username: string; email: string; password_hash: string; referrer: string | null; room_id: string; qr_key: string },
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
export function insertSession(db: Q, s: { user_id: number; token_hash: string; ip: string; user_agent: string; expires_at: number }) {
  const now = Date.now();
  return db.insertInto('sessions').values({ ...s, created_at: now, last_used_at: now }).execute();
}

/** The live session for a token hash together with its user's row, in one query. */
export async function findLiveSessionWithUser(db: Q, tokenHash: string, now: number) {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.created_at as session_created_at', 's.last_used_at', 's.expires_at', 's.ip', 's.user_agent', 's.token_hash', 's.revoked_at'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_id, session_created_at, last_used_at, expires_at, ip, user_agent, token_hash, revoked_at, ...user } = row;
  return {
    user,
    session: { id: session_id, user_id: user.id, created_at: session_created_at, last_used_at, expires_at, ip, user_agent, token_hash, revoked_at },
  };
}

export function touchSession(db: Q, id: number, now: number, expiresAt: number) {
  return db.updateTable('sessions').set({ last_used_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
}

export function revokeSession(db: Q, id: number) {
  return db.updateTable('sessions').set({ revoked_at: Date.now() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of the user except `keepId` (if given). */
export function revokeUserSessions(db: Q, userId: number, keepId?: number) {
  let q = db.updateTable('sessions').set({ revoked_at: Date.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepId !== undefined) q = q.where('id', '!=', keepId);
  return q.execute();
}

export function listUserSessions(db: Q, userId: number) {
  return db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

// Email tokens (verification and reset links)
export function insertEmailToken(db: Q, t: { user_id: number; kind: EmailTokenKind; token_hash: string; expires_at: number }) {
  return db.insertInto('email_tokens').values({ ...t, created_at: Date.now() }).execute();
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
  const r = await db.updateTable('email_tokens').set({ used_at: Date.now() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Voids every open token of a kind (a new reset link or a changed password voids the old ones). */
export function voidEmailTokens(db: Q, userId: number, kind: EmailTokenKind) {
  return db.updateTable('email_tokens').set({ used_at: Date.now() }).where('user_id', '=', userId).where('kind', '=', kind).where('used_at', 'is', null).execute();
}

export function recordVisit(db: Q, userId: number, path: string) {
  return db.insertInto('page_visits').values({ user_id: userId, path, at: Date.now() }).execute();
}
