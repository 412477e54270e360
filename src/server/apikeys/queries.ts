import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

export function insertApiKey(
  db: Q,
  k: {
    user_id: number;
    name: string;
    key_prefix: string;
    key_hash: string;
    allowed: string;
    read_only: number;
    created_at: number;
  },
) {
  return db.insertInto('api_keys').values(k).returning('id').executeTakeFirstOrThrow();
}

export function findApiKeyByHash(db: Q, keyHash: string) {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export function touchApiKey(db: Q, id: number, now: number, ip: string) {
  return db.updateTable('api_keys').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', id).execute();
}

export function listApiKeys(db: Q, userId: number) {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

export async function countApiKeys(db: Q, userId: number): Promise<number> {
  const r = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The owner's key with this handle; another user's handle finds nothing. */
export function updateApiKey(
  db: Q,
  userId: number,
  handle: string,
  set: { name: string; allowed: string; read_only?: number },
) {
  return db
    .updateTable('api_keys')
    .set(set)
    .where('user_id', '=', userId)
    .where('key_prefix', '=', handle)
    .returning('id')
    .executeTakeFirst();
}

export function deleteApiKey(db: Q, userId: number, handle: string) {
  return db
    .deleteFrom('api_keys')
    .where('user_id', '=', userId)
    .where('key_prefix', '=', handle)
    .returning('id')
    .executeTakeFirst();
}

/** Every key of the account (a password reset takes the account back). Returns how many. */
export async function deleteUserApiKeys(db: Q, userId: number): Promise<number> {
  const r = await db.deleteFrom('api_keys').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}
