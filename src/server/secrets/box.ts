import crypto from 'node:crypto';
import type { Config } from '../kernel/config';
import { loadOrCreateKeyFile, type SecretsKey } from './key';

/**
 * Seals secrets before they are written to the database (AES-256-GCM, a random 96-bit
 * nonce per value). The sealed text is `v1:<nonce>:<ciphertext+tag>`, base64url parts:
 * the version names the algorithm and key generation, so a later key rotation can tell
 * old values from new and re-seal them.
 *
 * `aad` binds a value to where it belongs (e.g. `node:42:keystore_password`): the same
 * ciphertext copied into another row or field fails to open instead of being read as that
 * row's secret. The version prefix is bound as well.
 */
export type SecretBox = {
  seal(plain: string, aad: string): string;
  open(sealed: string, aad: string): string;
  /** Where the key came from (for the start-up log; never the key itself). */
  readonly keySource: 'env' | 'file';
};

export class SecretOpenError extends Error {
  override readonly name = 'SecretOpenError';
}

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** The key from SECRETS_KEY when set (it wins), else `secrets.key` in the data folder. */
export function openSecretBox(dataDir: string, config: Pick<Config, 'secretsKey'>): SecretBox {
  const fromEnv = config.secretsKey;
  return secretBoxWithKey(fromEnv ?? loadOrCreateKeyFile(dataDir), fromEnv ? 'env' : 'file');
}

export function secretBoxWithKey(key: SecretsKey, keySource: 'env' | 'file'): SecretBox {
  const k = key.bytes();
  const aadBytes = (aad: string) => Buffer.from(`${VERSION}\0${aad}`, 'utf8');
  return {
    keySource,
    seal(plain, aad) {
      const nonce = crypto.randomBytes(NONCE_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', k, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(aadBytes(aad));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}:${nonce.toString('base64url')}:${body.toString('base64url')}`;
    },
    open(sealed, aad) {
      const parts = sealed.split(':');
      if (parts.length !== 3 || parts[0] !== VERSION)
        throw new SecretOpenError('Not a sealed secret of a known version');
      const nonce = Buffer.from(parts[1], 'base64url');
      const body = Buffer.from(parts[2], 'base64url');
      if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES)
        throw new SecretOpenError('Sealed secret is damaged');
      const decipher = crypto.createDecipheriv('aes-256-gcm', k, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(aadBytes(aad));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        // No detail: the cause (wrong key, wrong field, altered bytes) is not knowable, and no secret belongs in a message.
        throw new SecretOpenError('Sealed secret could not be opened (wrong key, wrong field, or altered)');
      }
    },
  };
}
