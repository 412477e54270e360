import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isEmailSettingKey, type EmailSettingKey } from '../../shared/notification-kinds';
import type { DB } from '../db/open';
import { ensureSetting } from '../operator/settings';

/**
 * One-click unsubscribe tokens: `<user id>.<setting>.<HMAC>`, so a link in a mail
 * turns off one email setting of one user without a login. Unforgeable without the
 * server's key (a random key kept in `settings`), stored nowhere, and without expiry:
 * an unsubscribe link in an old mail must still work (RFC 8058 asks links to keep
 * working for a while after the mail was sent).
 */
const KEY_SETTING = 'unsubscribe_token_key';

async function tokenKey(db: DB): Promise<Buffer> {
  return Buffer.from(await ensureSetting(db, KEY_SETTING, () => randomBytes(32).toString('base64url')), 'base64url');
}

const mac = (key: Buffer, userId: number, setting: string) =>
  createHmac('sha256', key).update(`unsubscribe:${userId}:${setting}`).digest();

export async function unsubscribeToken(db: DB, userId: number, setting: EmailSettingKey): Promise<string> {
  return `${userId}.${setting}.${mac(await tokenKey(db), userId, setting).toString('base64url')}`;
}

/** The user and setting a token names, or null for anything not made by `unsubscribeToken`. */
export async function readUnsubscribeToken(
  db: DB,
  token: string | undefined,
): Promise<{ userId: number; setting: EmailSettingKey } | null> {
  const m = token ? /^(\d{1,15})\.([a-z_]{1,64})\.([\w-]{43})$/.exec(token) : null;
  if (!m || !isEmailSettingKey(m[2])) return null;
  const userId = Number(m[1]);
  const expected = mac(await tokenKey(db), userId, m[2]);
  const given = Buffer.from(m[3], 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, setting: m[2] } : null;
}
