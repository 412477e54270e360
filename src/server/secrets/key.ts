import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { KEY_FORMAT_HINT, parseSecretsKey, SecretsKey } from '../kernel/secrets-key';

// Parsing a key is the config's (kernel/, below this folder); the key file is kept here.
export { KEY_FORMAT_HINT, parseSecretsKey, SecretsKey } from '../kernel/secrets-key';

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
