import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DB } from '../db/open';
import { ensureSetting } from '../operator/settings';

/**
 * Device tokens: handed out at each successful login and sent back by the client on
 * the next one, so a device that logged in before keeps its own password allowance
 * while strangers exhaust theirs (src/server/auth/README.md). A token is
 * `<user id>.<device id>.<HMAC>`: bound to one account, unforgeable without the
 * server's key, and stored nowhere, so it costs no table and no lookup.
 */
const keys = new WeakMap<DB, Promise<Buffer>>();

function deviceKey(db: DB): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = ensureSetting(db, 'device_token_key', () => randomBytes(32).toString('base64url')).then((v) =>
      Buffer.from(v, 'base64url'),
    );
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const mac = (key: Buffer, userId: number, deviceId: string) =>
  createHmac('sha256', key).update(`device:${userId}:${deviceId}`).digest();

export async function issueDeviceToken(db: DB, userId: number): Promise<string> {
  const deviceId = randomBytes(16).toString('base64url');
  return `${userId}.${deviceId}.${mac(await deviceKey(db), userId, deviceId).toString('base64url')}`;
}

/** The device id if `token` was issued to this account, else null. */
export async function knownDevice(db: DB, userId: number, token: string | undefined): Promise<string | null> {
  const m = token ? /^(\d{1,15})\.([\w-]{22})\.([\w-]{43})$/.exec(token) : null;
  if (!m || Number(m[1]) !== userId) return null;
  const expected = mac(await deviceKey(db), userId, m[2]);
  const given = Buffer.from(m[3], 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? m[2] : null;
}
