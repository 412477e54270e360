import crypto from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { blsPublicKeyHex, isBlsSecretKey } from './bls';
import { BoundedQueue, QueueAbortedError, QueueFullError, type Owner } from './bounded-queue';
import { kdfCostError, keystoreShapeError, type Eip2335Keystore, type KdfModule } from './keystore-format';

/**
 * Proves a customer's validator keystore and password: the EIP-2335 keystore is parsed,
 * its KDF cost bounded, the password normalised as the EIP says, the key derived, the
 * checksum verified, the secret decrypted and checked against the keystore's public key.
 *
 * Key derivation (up to 256 MiB and about a second of CPU for the standard scrypt) runs
 * in Node's async crypto, on libuv's thread pool, never on the event loop; at most
 * DECRYPT_CONCURRENCY run at once so a burst of uploads waits in line instead of taking
 * all memory and CPU, and past MAX_QUEUED waiting files a file is answered "busy" at
 * once. The line is fair between uploaders (bounded-queue.ts): one derivation running per
 * account, slots handed round robin, so another customer waits for at most one.
 */
export type KeystoreCheck = { ok: true; pubkey: string; secret: Buffer } | { ok: false; message: string };

/**
 * At most 2 (2 × 256 MiB), and one core left to the event loop: a derivation beside as many
 * others as there are cores only slows them all, the one a waiting customer needs too.
 */
export const DECRYPT_CONCURRENCY = Math.min(2, Math.max(1, os.availableParallelism() - 1));
export const MAX_QUEUED = 200;

export const WRONG_PASSWORD = 'Wrong password';
export const BUSY = 'The server is busy checking other keystores. Please try again in a minute.';
export const CANCELLED = 'Cancelled';

const scrypt = promisify(crypto.scrypt) as (
  password: Uint8Array,
  salt: Uint8Array,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
const pbkdf2 = promisify(crypto.pbkdf2);
// 128 * n * r bytes for the standard n = 2^18, r = 8 is 256 MiB; Node refuses at its 32 MiB default.
const SCRYPT_MAXMEM = 288 * 1024 * 1024;

/** The server's one line of derivations (exported so tests can see who waits). */
export const keystoreQueue = new BoundedQueue(DECRYPT_CONCURRENCY, MAX_QUEUED);

/**
 * EIP-2335's password rule: NFKD, then drop the C0 (0x00-0x1F), DEL (0x7F) and C1
 * (0x80-0x9F) control codes, then UTF-8.
 */
export function normalizeKeystorePassword(password: string): Buffer {
  return Buffer.from(password.normalize('NFKD').replace(/[\u0000-\u001f\u007f-\u009f]/g, ''), 'utf8');
}

/** `owner` (the uploader's user id): one derivation at a time per owner, owners served in turn. */
export type CheckOptions = { queue?: BoundedQueue; signal?: AbortSignal; owner?: Owner };

/**
 * Checks one keystore against the password. A string is read as the file's text, anything
 * else as its parsed JSON. `signal` (the request's) drops a file still waiting in line.
 */
export async function checkKeystore(
  input: string | unknown,
  password: string,
  { queue = keystoreQueue, signal, owner }: CheckOptions = {},
): Promise<KeystoreCheck> {
  let json: unknown = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch {
      return { ok: false, message: 'Not an EIP-2335 keystore: the file is not JSON' };
    }
  }
  const shape = keystoreShapeError(json);
  if (!shape.ok) return { ok: false, message: `Not an EIP-2335 keystore: ${shape.message}` };
  const ks = shape.keystore;
  const tooCostly = kdfCostError(ks.crypto.kdf);
  if (tooCostly) return { ok: false, message: `Keystore refused: its key derivation is too costly (${tooCostly})` };

  let dk: Buffer;
  try {
    dk = await queue.run(() => deriveKey(ks.crypto.kdf, normalizeKeystorePassword(password)), signal, owner);
  } catch (err) {
    if (err instanceof QueueFullError) return { ok: false, message: BUSY };
    if (err instanceof QueueAbortedError) return { ok: false, message: CANCELLED };
    throw err;
  }
  return openWithKey(ks, dk);
}

function deriveKey(kdf: KdfModule, password: Buffer): Promise<Buffer> {
  const salt = Buffer.from(kdf.params.salt, 'hex');
  if (kdf.function === 'pbkdf2') return pbkdf2(password, salt, kdf.params.c, kdf.params.dklen, 'sha256');
  const { n, r, p, dklen } = kdf.params;
  return scrypt(password, salt, dklen, { N: n, r, p, maxmem: SCRYPT_MAXMEM });
}

function openWithKey(ks: Eip2335Keystore, dk: Buffer): KeystoreCheck {
  const cipherText = Buffer.from(ks.crypto.cipher.message, 'hex');
  const checksum = crypto.createHash('sha256').update(dk.subarray(16, 32)).update(cipherText).digest();
  if (!crypto.timingSafeEqual(checksum, Buffer.from(ks.crypto.checksum.message, 'hex')))
    return { ok: false, message: WRONG_PASSWORD };
  const decipher = crypto.createDecipheriv(
    'aes-128-ctr',
    dk.subarray(0, 16),
    Buffer.from(ks.crypto.cipher.params.iv, 'hex'),
  );
  const secret = Buffer.concat([decipher.update(cipherText), decipher.final()]);
  if (!isBlsSecretKey(secret.toString('hex')))
    return { ok: false, message: 'The keystore does not hold a valid BLS12-381 secret key' };
  if (blsPublicKeyHex(secret) !== ks.pubkey)
    return { ok: false, message: 'The keystore public key does not match its secret key' };
  return { ok: true, pubkey: ks.pubkey, secret };
}

export type KeystoreFileCheck = { name: string; result: KeystoreCheck };

/**
 * Checks every file of one upload with the one password (all queued at once; an owner's
 * run one at a time), in the order given. A key that appears twice in the upload is
 * deployed once: the later file says where the key already is.
 */
export async function checkKeystoreFiles(
  files: ReadonlyArray<{ name: string; json: unknown }>,
  password: string,
  options: CheckOptions = {},
): Promise<KeystoreFileCheck[]> {
  const results = await Promise.all(
    files.map(async (f) => ({ name: f.name, result: await checkKeystore(f.json, password, options) })),
  );
  const seen = new Map<string, string>();
  return results.map((r) => {
    if (!r.result.ok) return r;
    const first = seen.get(r.result.pubkey);
    if (first !== undefined)
      return { name: r.name, result: { ok: false, message: `This validator key is also in ${first}` } };
    seen.set(r.result.pubkey, r.name);
    return r;
  });
}
