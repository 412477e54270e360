import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';

/**
 * The 32-byte key that seals the secrets Nodekeep keeps (validator keystores and their
 * password, operator/BLS keys, monero secrets). It never goes into the database: it comes
 * from SECRETS_KEY or from `secrets.key` in the data folder. Wrapped so that logging a
 * config or an error that holds it prints no key bytes.
 */
export class SecretsKey {
  readonly #bytes: Buffer;
  constructor(bytes: Uint8Array) {
    if (bytes.length !== 32) throw new Error('a secrets key is 32 bytes');
    this.#bytes = Buffer.from(bytes);
  }
  bytes(): Buffer {
    return this.#bytes;
  }
  toJSON(): string {
    return '[secret]';
  }
  toString(): string {
    return '[secret]';
  }
  [inspect.custom](): string {
    return 'SecretsKey [secret]';
  }
}

export const KEY_FORMAT_HINT =
  '64 hex characters or the base64 of 32 bytes (e.g. the output of `openssl rand -hex 32`)';

/** 64 hex characters, or standard/url base64 of exactly 32 bytes; null if neither. */
export function parseSecretsKey(text: string): SecretsKey | null {
  const s = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return new SecretsKey(Buffer.from(s, 'hex'));
  // 32 bytes are 43 base64 characters plus one '=' of padding (optional here).
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return new SecretsKey(bytes);
  }
  return null;
}

export class SecretsKeyError extends Error {
  override readonly name = 'SecretsKeyError';
}

export const KEY_FILE_NAME = 'secrets.key';

/**
 * Reads `secrets.key` from the data folder, creating it on first start. Creation is
 * atomic: the key is written in full to a private temporary file which is then hard-linked
 * to the final name; link() fails when the name exists, so two processes starting at
 * once never write two keys, and neither can read a half-written file (which a plain
 * `wx` create followed by a write would allow). The loser of the race reads the winner's key.
 */
export function loadOrCreateKeyFile(dataDir: string): SecretsKey {
  const file = path.join(dataDir, KEY_FILE_NAME);
  if (!fs.existsSync(file)) createKeyFile(file);
  return readKeyFile(file);
}

function createKeyFile(file: string): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${crypto.randomBytes(32).toString('hex')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process created it first: use theirs.
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readKeyFile(file: string): SecretsKey {
  const st = fs.lstatSync(file);
  if (!st.isFile()) throw new SecretsKeyError(`${file} is not a regular file. Move it away, or set SECRETS_KEY.`);
  if (st.mode & 0o077) {
    const mode = (st.mode & 0o777).toString(8).padStart(3, '0');
    throw new SecretsKeyError(
      `${file} is readable or writable by other users (mode ${mode}); it holds the key to every stored secret. Run: chmod 600 ${file}`,
    );
  }
  const key = parseSecretsKey(fs.readFileSync(file, 'utf8'));
  if (!key) {
    throw new SecretsKeyError(
      `${file} is malformed: it must hold ${KEY_FORMAT_HINT}. Restore it from your backup; secrets sealed with the lost key cannot be opened.`,
    );
  }
  return key;
}
