import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/kernel/config';
import { openSecretBox, SecretOpenError } from '../../src/server/secrets/box';
import { parseSecretsKey, SecretsKeyError } from '../../src/server/secrets/key';

const run = promisify(execFile);
const dirs: string[] = [];
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-secrets-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const noEnvKey = { secretsKey: null };
const KEYSTORE_PASSWORD = 'correct horse battery staple 𝔱𝔢𝔰𝔱🔑';

describe('secret box (AES-256-GCM, sealed values)', () => {
  it('round-trips text, including empty and non-ASCII, in the versioned encoded form', () => {
    const box = openSecretBox(tempDir(), noEnvKey);
    for (const plain of ['', 'x', KEYSTORE_PASSWORD, '{"crypto":{}}'.repeat(2000)]) {
      const sealed = box.seal(plain, 'node:1:keystore_password');
      expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
      expect(box.open(sealed, 'node:1:keystore_password')).toBe(plain);
    }
  });

  it('uses a fresh nonce for each value: the same secret seals differently', () => {
    const box = openSecretBox(tempDir(), noEnvKey);
    const a = box.seal('same', 'f');
    const b = box.seal('same', 'f');
    expect(a).not.toBe(b);
    expect(a.split(':')[1]).not.toBe(b.split(':')[1]);
  });

  it('refuses to open a value under another aad (copied to another node or field)', () => {
    const box = openSecretBox(tempDir(), noEnvKey);
    const sealed = box.seal('bls secret', 'node:1:bls_key');
    expect(() => box.open(sealed, 'node:2:bls_key')).toThrow(SecretOpenError);
    expect(() => box.open(sealed, 'node:1:monero_secret')).toThrow(SecretOpenError);
  });

  it('refuses tampered nonce, ciphertext, tag, version or shape', () => {
    const box = openSecretBox(tempDir(), noEnvKey);
    const sealed = box.seal('operator secret', 'a');
    const [v, nonce, body] = sealed.split(':');
    const flip = (b64: string, at: number) => {
      const bytes = Buffer.from(b64, 'base64url');
      bytes[at] ^= 0x01;
      return bytes.toString('base64url');
    };
    const bodyLen = Buffer.from(body, 'base64url').length;
    const bad = [
      `${v}:${flip(nonce, 0)}:${body}`,
      `${v}:${nonce}:${flip(body, 0)}`,
      `${v}:${nonce}:${flip(body, bodyLen - 1)}`, // the tag
      `${v}:${nonce}:${Buffer.from(body, 'base64url')
        .subarray(0, bodyLen - 1)
        .toString('base64url')}`,
      `v2:${nonce}:${body}`,
      `${nonce}:${body}`,
      'operator secret',
      '',
    ];
    for (const s of bad) expect(() => box.open(s, 'a'), s).toThrow(SecretOpenError);
    expect(box.open(sealed, 'a')).toBe('operator secret');
  });

  it('never puts the secret into an error message', () => {
    const box = openSecretBox(tempDir(), noEnvKey);
    const sealed = box.seal(KEYSTORE_PASSWORD, 'a');
    try {
      box.open(sealed, 'b');
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toContain(KEYSTORE_PASSWORD);
      expect(String(err)).not.toContain(sealed);
    }
  });
});

describe('where the key comes from', () => {
  it('creates secrets.key at first start, owner-only, and reuses it afterwards', () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.key');
    expect(fs.existsSync(file)).toBe(false);
    const first = openSecretBox(dir, noEnvKey);
    expect(first.keySource).toBe('file');
    const st = fs.statSync(file);
    expect(st.mode & 0o777).toBe(0o600);
    const content = fs.readFileSync(file, 'utf8');
    expect(content).toMatch(/^[0-9a-f]{64}\n$/);
    const sealed = first.seal('kept across restarts', 'n');
    // A restart: same file, same key, the old value opens.
    const second = openSecretBox(dir, noEnvKey);
    expect(second.open(sealed, 'n')).toBe('kept across restarts');
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
    // No temporary file left behind.
    expect(fs.readdirSync(dir)).toEqual(['secrets.key']);
  });

  it('gives every process the same key when several start at once on a new folder', async () => {
    const dir = tempDir();
    const keyModule = path.resolve('src/server/secrets/key.ts');
    const startAt = Date.now() + 1500;
    const script = `
      const { loadOrCreateKeyFile } = await import(${JSON.stringify(keyModule)});
      while (Date.now() < ${startAt}) {}
      process.stdout.write(loadOrCreateKeyFile(${JSON.stringify(dir)}).bytes().toString('hex'));`;
    const outs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 }),
      ),
    );
    const keys = new Set(outs.map((o) => o.stdout));
    expect(keys.size).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'secrets.key'), 'utf8').trim()).toBe([...keys][0]);
    expect(fs.readdirSync(dir)).toEqual(['secrets.key']);
  });

  it('refuses a key file that others may read, naming the fix', () => {
    const dir = tempDir();
    openSecretBox(dir, noEnvKey);
    const file = path.join(dir, 'secrets.key');
    for (const mode of [0o640, 0o604, 0o660]) {
      fs.chmodSync(file, mode);
      expect(() => openSecretBox(dir, noEnvKey)).toThrow(SecretsKeyError);
      expect(() => openSecretBox(dir, noEnvKey)).toThrow(`chmod 600 ${file}`);
    }
    fs.chmodSync(file, 0o400);
    expect(() => openSecretBox(dir, noEnvKey)).not.toThrow();
  });

  it('refuses a malformed key file instead of replacing it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.key');
    for (const content of ['', 'abc\n', `${'0'.repeat(63)}\n`, `${'g'.repeat(64)}\n`]) {
      fs.writeFileSync(file, content, { mode: 0o600 });
      expect(() => openSecretBox(dir, noEnvKey)).toThrow(/secrets\.key is malformed/);
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    }
  });

  it('takes SECRETS_KEY over the key file (hex or base64), and creates no file then', () => {
    const dir = tempDir();
    const hex = 'a1'.repeat(32);
    const base64 = Buffer.from(hex, 'hex').toString('base64');
    const fromHex = openSecretBox(dir, loadConfig({ SECRETS_KEY: hex }));
    expect(fromHex.keySource).toBe('env');
    expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
    const sealed = fromHex.seal('monero spend key', 'node:9:monero_secret');
    expect(openSecretBox(dir, loadConfig({ SECRETS_KEY: base64 })).open(sealed, 'node:9:monero_secret')).toBe(
      'monero spend key',
    );
    expect(
      openSecretBox(dir, loadConfig({ SECRETS_KEY: Buffer.from(hex, 'hex').toString('base64url') })).open(
        sealed,
        'node:9:monero_secret',
      ),
    ).toBe('monero spend key');
    // The file key (another key) cannot open it: the env key was really used.
    const fileBox = openSecretBox(tempDir(), noEnvKey);
    expect(() => fileBox.open(sealed, 'node:9:monero_secret')).toThrow(SecretOpenError);
    // Even when a key file exists beside it, the env key wins.
    openSecretBox(dir, noEnvKey);
    expect(openSecretBox(dir, loadConfig({ SECRETS_KEY: hex })).open(sealed, 'node:9:monero_secret')).toBe(
      'monero spend key',
    );
  });

  it.each([
    'abc',
    'a1'.repeat(31),
    'a1'.repeat(33),
    'zz'.repeat(32),
    Buffer.alloc(31).toString('base64'),
    Buffer.alloc(33).toString('base64'),
  ])('refuses SECRETS_KEY=%j at start-up without echoing it', (value) => {
    expect(() => loadConfig({ SECRETS_KEY: value })).toThrow(ConfigError);
    try {
      loadConfig({ SECRETS_KEY: value });
    } catch (err) {
      expect((err as Error).message).toContain('SECRETS_KEY: must be 64 hex characters or the base64 of 32 bytes');
      expect((err as Error).message).not.toContain(value);
    }
  });

  it('keeps the key out of logs and JSON', () => {
    const key = parseSecretsKey('b2'.repeat(32))!;
    const config = loadConfig({ SECRETS_KEY: 'b2'.repeat(32) });
    expect(JSON.stringify(config)).not.toContain('b2b2');
    expect(JSON.stringify(config)).toContain('"secretsKey":"[secret]"');
    expect(String(key)).toBe('[secret]');
  });
});

describe('the database never sees plaintext', () => {
  // Reads every byte SQLite wrote (main file and WAL) and looks for the secret in it.
  function fileBytes(dbFile: string): Buffer {
    return Buffer.concat([dbFile, `${dbFile}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
  }
  function writeRow(dbFile: string, value: string) {
    const db = new SQLite(dbFile);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS node_secrets (node_id INTEGER, field TEXT, value TEXT)');
    db.prepare('INSERT INTO node_secrets VALUES (?, ?, ?)').run(7, 'keystore_password', value);
    return db;
  }

  it('holds only the sealed text, which opens again after reading it back', () => {
    const dir = tempDir();
    const box = openSecretBox(dir, noEnvKey);
    const dbFile = path.join(dir, 'sealed.sqlite');
    const sealed = box.seal(KEYSTORE_PASSWORD, 'node:7:keystore_password');
    const db = writeRow(dbFile, sealed);
    const bytes = fileBytes(dbFile);
    expect(bytes.includes(Buffer.from(sealed))).toBe(true);
    expect(bytes.includes(Buffer.from(KEYSTORE_PASSWORD))).toBe(false);
    expect(bytes.includes(Buffer.from('correct horse'))).toBe(false);
    const back = db.prepare('SELECT value FROM node_secrets WHERE node_id = 7').get() as { value: string };
    expect(box.open(back.value, 'node:7:keystore_password')).toBe(KEYSTORE_PASSWORD);
    db.close();
  });

  it('(control) the same search finds a plaintext value written unsealed', () => {
    const dbFile = path.join(tempDir(), 'plain.sqlite');
    writeRow(dbFile, KEYSTORE_PASSWORD).close();
    expect(fileBytes(dbFile).includes(Buffer.from('correct horse'))).toBe(true);
  });
});
