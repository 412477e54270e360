import ipaddr from 'ipaddr.js';
import { inSubnet, parseIp } from '../../shared/ip';
import { parseAllowList as parseList, formatAllowList } from '../../shared/ip-list';
import type { Context } from '../rpc/context';
import { normalizeIp } from '../rpc/context';
import type { DB } from '../db/open';
import type { ApiKey, User } from '../db/schema';
import { findUserById } from '../auth/users';
import { hashToken, newToken } from '../auth/tokens';
import { fail } from '../kernel/errors';
import { raise } from '../notifications/raise';
import { countApiKeys, findApiKeyByHash, insertApiKey, touchApiKey } from './queries';

/**
 * API keys act as the bearer token for scripts. A key reads `nk_<handle>_<secret>`:
 * the prefix tells it from a session token (43 base64url characters) without a
 * second lookup, the handle names it in lists (the spec's auth_key, as "nk_<handle>")
 * and the secret carries 256 bits, so, like session tokens, only a sha256 of the whole
 * key is kept.
 */
export const API_KEY_PREFIX = 'nk_';
/** "nk_" and the 8-character handle: what lists show and save/delete take. */
const PUBLIC_LENGTH = 11;
const TOUCH_EVERY_MS = 60_000;
export const MAX_KEYS_PER_USER = 25;

/** The whole shape, not only the prefix: one session token in 64³ starts with "nk_" too. */
const API_KEY_SHAPE = /^nk_[\w-]{8}_[\w-]{43}$/;

export function looksLikeApiKey(token: string): boolean {
  return API_KEY_SHAPE.test(token);
}

/** "nk_<handle>" of a key, or of the prefix itself. */
export function publicPart(keyOrPrefix: string): string {
  return keyOrPrefix.slice(0, PUBLIC_LENGTH);
}

/** The handle stored in key_prefix from an auth_key as listed (or a whole key). */
export function handleOf(authKey: string): string {
  return publicPart(authKey).slice(API_KEY_PREFIX.length);
}

/** The canonical stored text of an allow list; a bad entry is a BAD_REQUEST naming it. */
export function canonicalAllowList(allowed: string): string {
  const r = parseList(allowed);
  if ('error' in r) fail('BAD_REQUEST', `allowed: ${r.error}`, 'allowed');
  return formatAllowList(r.entries);
}

/** Whether `ip` (the real client address) is inside the stored list; an empty list allows any. */
export function addressAllowed(allowed: string, ip: string): boolean {
  const r = parseList(allowed);
  if ('error' in r) return false;
  if (!r.entries.length) return true;
  const addr = parseIp(normalizeIp(ip));
  if (!addr) return false;
  return r.entries.some((e) => inSubnet(addr, ipaddr.parse(e.address), e.prefix ?? (e.family === 'ipv4' ? 32 : 128)));
}

/** Creates a key and returns it: the only time the whole key exists outside the caller. */
export async function createApiKey(
  db: DB,
  userId: number,
  input: { name: string; allowed?: string; read_only?: boolean },
): Promise<{ key: string; handle: string }> {
  const handle = newToken(6);
  const key = `${API_KEY_PREFIX}${handle}_${newToken()}`;
  const allowed = canonicalAllowList(input.allowed ?? '');
  await db.transaction().execute(async (trx) => {
    // In the transaction (one writer): 100 creates at once cannot pass the cap together.
    if ((await countApiKeys(trx, userId)) >= MAX_KEYS_PER_USER)
      fail('CONFLICT', `You can have at most ${MAX_KEYS_PER_USER} API keys. Delete one you no longer use first.`);
    await insertApiKey(trx, {
      user_id: userId,
      name: input.name,
      key_prefix: handle,
      key_hash: hashToken(key),
      allowed,
      read_only: input.read_only ? 1 : 0,
      created_at: Date.now(),
    });
    await raise(trx, userId, 'api_key_created', { name: input.name });
  });
  return { key, handle };
}

/**
 * The account an API key signs in from `ip` now, or null (unknown or revoked key, an
 * address outside its allow list, a disabled account); reads only, and spends nothing
 * of the key's own rate: the call budget asks this before charging (guards/call-budget.ts).
 */
export async function apiKeyOwner(db: DB, token: string, ip: string): Promise<number | null> {
  if (token.length > 200) return null;
  const key = await findApiKeyByHash(db, hashToken(token));
  if (!key || !addressAllowed(key.allowed, ip)) return null;
  const user = await findUserById(db, key.user_id);
  return user && user.disabled_at === null ? user.id : null;
}

/**
 * The enabled user behind an API key used from `ctx.req.ip`, or null for an unknown
 * key. Read from the database at every call (no cache), so a deleted key is refused at
 * once. A known key used from an address outside its allow list is refused with a
 * message, so a script's author sees why; then its use is counted against the key's
 * rate limit, and its last use and address are recorded (at most once a minute per
 * address).
 */
export async function resolveApiKey(
  ctx: Pick<Context, 'db' | 'req' | 'limiter'>,
  token: string,
): Promise<{ key: ApiKey; user: User } | null> {
  if (token.length > 200) return null;
  const key = await findApiKeyByHash(ctx.db, hashToken(token));
  if (!key) return null;
  if (!addressAllowed(key.allowed, ctx.req.ip))
    fail('FORBIDDEN', `This API key may not be used from your address (${ctx.req.ip}).`);
  if (!ctx.limiter.hit('apiKeyUse', key.id))
    fail('TOO_MANY_REQUESTS', 'This API key has made too many calls. Please wait a minute and try again.');
  const user = await findUserById(ctx.db, key.user_id);
  if (!user || user.disabled_at !== null) return null;
  const now = Date.now();
  const ip = normalizeIp(ctx.req.ip);
  if (now - (key.last_used_at ?? 0) > TOUCH_EVERY_MS || key.last_used_ip !== ip)
    await touchApiKey(ctx.db, key.id, now, ip);
  return { key, user };
}
