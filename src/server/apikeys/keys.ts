import type { Context } from '../context';
import { normalizeIp } from '../context';
import type { DB } from '../db/open';
import type { ApiKey, User } from '../db/schema';
import { findUserById } from '../auth/queries';
import { hashToken, newToken } from '../auth/tokens';
import { fail } from '../errors';
import { raise } from '../notifications/raise';
import { findApiKeyByHash, insertApiKey, touchApiKey } from './queries';

/**
 * API keys act as the bearer token for scripts. A key reads `nk_<handle>_<secret>`:
 * the prefix tells it from a session token (43 base64url characters) without a
 * second lookup, the handle names it in lists (the spec's auth_key) and the secret
 * carries 256 bits, so, like session tokens, only a sha256 of the whole key is kept.
 */
export const API_KEY_PREFIX = 'nk_';
const TOUCH_EVERY_MS = 60_000;

/** The whole shape, not only the prefix: one session token in 64³ starts with "nk_" too. */
const API_KEY_SHAPE = /^nk_[\w-]{8}_[\w-]{43}$/;

export function looksLikeApiKey(token: string): boolean {
  return API_KEY_SHAPE.test(token);
}

/** Splits "1.2.3.4, 5.6.7.8" into addresses; an empty list means any address. */
export function parseAllowList(allowed: string): string[] {
  return allowed
    .split(',')
    .map((s) => normalizeIp(s.trim()))
    .filter(Boolean);
}

/** Creates a key and returns it: the only time the whole key exists outside the caller. */
export async function createApiKey(db: DB, userId: number, input: { name: string; allowed?: string }): Promise<{ key: string; handle: string }> {
  const handle = newToken(6);
  const key = `${API_KEY_PREFIX}${handle}_${newToken()}`;
  const allowed = parseAllowList(input.allowed ?? '').join(',');
  await db.transaction().execute(async (trx) => {
    await insertApiKey(trx, { user_id: userId, name: input.name, key_prefix: handle, key_hash: hashToken(key), allowed, created_at: Date.now() });
    await raise(trx, userId, 'api_key_created', { name: input.name });
  });
  return { key, handle };
}

/**
 * The enabled user behind an API key used from `ctx.req.ip`, or null for an unknown
 * key. A known key used from an address outside its allow list is refused with a
 * message, so a script's author sees why.
 */
export async function resolveApiKey(ctx: Pick<Context, 'db' | 'req'>, token: string): Promise<{ key: ApiKey; user: User } | null> {
  if (token.length > 200) return null;
  const key = await findApiKeyByHash(ctx.db, hashToken(token));
  if (!key) return null;
  const list = parseAllowList(key.allowed);
  if (list.length && !list.includes(normalizeIp(ctx.req.ip))) fail('FORBIDDEN', `This API key may not be used from your address (${ctx.req.ip}).`);
  const user = await findUserById(ctx.db, key.user_id);
  if (!user || user.disabled_at !== null) return null;
  const now = Date.now();
  if (now - (key.last_used_at ?? 0) > TOUCH_EVERY_MS) await touchApiKey(ctx.db, key.id, now);
  return { key, user };
}
