import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

export function insertApiKey(db: Q, k: { user_id: number; name: string; key_prefix: string; key_hash: string; allowed: string; created_at: number }) {
  return db.insertInto('api_keys').values(k).returning('id').executeTakeFirstOrThrow();
}

export function findApiKeyByHash(db: Q, keyHash: string) {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export function touchApiKey(db: Q, id: number, now: number) {
  return db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}
