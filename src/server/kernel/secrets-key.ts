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
