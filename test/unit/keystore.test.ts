import { create, defaultScryptModule } from '@chainsafe/bls-keystore';
import { bls12_381 } from '@noble/curves/bls12-381';
import { describe, expect, it } from 'vitest';
import { blsPublicKeyHex, isBlsSecretKey } from '../../src/server/nodes/bls';
import { BoundedQueue, QueueAbortedError } from '../../src/server/nodes/bounded-queue';
import {
  BUSY,
  CANCELLED,
  checkKeystore,
  checkKeystoreFiles,
  normalizeKeystorePassword,
  WRONG_PASSWORD,
} from '../../src/server/nodes/keystore';

// EIP-2335's own test vectors (https://eips.ethereum.org/EIPS/eip-2335#test-cases).
const EIP_PASSWORD = '𝔱𝔢𝔰𝔱𝔭𝔞𝔰𝔰𝔴𝔬𝔯𝔡🔑';
const EIP_SECRET = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';
const EIP_PUBKEY = '9612d7a727c9d0a22e185a1c768478dfe919cada9266988cb32359c11f2b7b27f4ae4040902382ae2910c15e2b420d07';
const EIP_SALT = 'd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3';
const EIP_IV = '264daa3f303d7259501c93d997d84fe6';
const EIP_SCRYPT = {
  crypto: {
    kdf: { function: 'scrypt', params: { dklen: 32, n: 262144, p: 1, r: 8, salt: EIP_SALT }, message: '' },
    checksum: {
      function: 'sha256',
      params: {},
      message: 'd2217fe5f3e9a1e34581ef8a78f7c9928e436d36dacc5e846690a5581e8ea484',
    },
    cipher: {
      function: 'aes-128-ctr',
      params: { iv: EIP_IV },
      message: '06ae90d55fe0a6e9c5c3bc5b170827b2e5cce3929ed3f116c2811e6366dfe20f',
    },
  },
  description: 'This is a test keystore that uses scrypt to secure the secret.',
  pubkey: EIP_PUBKEY,
  path: 'm/12381/60/3141592653/589793238',
  uuid: '1d85ae20-35c5-4611-98e8-aa14a633906f',
  version: 4,
};
const EIP_PBKDF2 = {
  crypto: {
    kdf: { function: 'pbkdf2', params: { dklen: 32, c: 262144, prf: 'hmac-sha256', salt: EIP_SALT }, message: '' },
    checksum: {
      function: 'sha256',
      params: {},
      message: '8a9f5d9912ed7e75ea794bc5a89bca5f193721d30868ade6f73043c6ea6febf1',
    },
    cipher: {
      function: 'aes-128-ctr',
      params: { iv: EIP_IV },
      message: 'cee03fde2af33149775b7223e7845e4fb2c8ae1792e5f99fe9ecf474cc8c16ad',
    },
  },
  description: 'This is a test keystore that uses PBKDF2 to secure the secret.',
  pubkey: EIP_PUBKEY,
  path: 'm/12381/60/0/0',
  uuid: '64625def-3331-4eea-ab6f-782f3ed16a83',
  version: 4,
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const randomHex = (n: number) => hex(crypto.getRandomValues(new Uint8Array(n)));
const smallScrypt = () => ({
  function: 'scrypt' as const,
  params: { dklen: 32, n: 2 ** 14, r: 8, p: 1, salt: randomHex(32) },
});
const smallPbkdf2 = () => ({
  function: 'pbkdf2' as const,
  params: { dklen: 32, c: 2 ** 14, prf: 'hmac-sha256' as const, salt: randomHex(32) },
});

/** A keystore made by @chainsafe/bls-keystore, an implementation independent of ours. */
async function makeKeystore(
  password: string,
  kdf: Parameters<typeof create>[5],
  secret = bls12_381.utils.randomSecretKey(),
  pubkey?: Uint8Array,
) {
  const pk = pubkey ?? bls12_381.longSignatures.getPublicKey(secret).toBytes(true);
  const ks = await create(password, secret, pk, 'm/12381/3600/0/0/0', null, kdf);
  return { json: JSON.stringify(ks), secret: hex(secret), pubkey: hex(pk) };
}
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

describe('EIP-2335 password normalisation', () => {
  it('matches the EIP test vector encoding (NFKD, control codes dropped, UTF-8)', () => {
    expect(normalizeKeystorePassword(EIP_PASSWORD).toString('hex')).toBe('7465737470617373776f7264f09f9491');
    // C0, DEL and C1 control codes are stripped, other characters kept.
    expect(normalizeKeystorePassword('a\u0000b\u001fc\u007fd\u0080e\u009ff\u00a0g').toString('utf8')).toBe('abcdef g');
    expect(normalizeKeystorePassword('Ａ').toString('utf8')).toBe('A');
  });
});

describe('EIP-2335 test vectors', () => {
  it('opens the scrypt vector (standard n = 262144) and proves its public key', async () => {
    const r = await checkKeystore(JSON.stringify(EIP_SCRYPT), EIP_PASSWORD);
    expect(r).toMatchObject({ ok: true, pubkey: EIP_PUBKEY });
    expect(r.ok && r.secret.toString('hex')).toBe(EIP_SECRET);
  });

  it('opens the pbkdf2 vector, with the password given already normalised or with control codes', async () => {
    for (const password of [EIP_PASSWORD, 'testpassword🔑', 'test\u0007password\u0085🔑']) {
      const r = await checkKeystore(EIP_PBKDF2, password);
      expect(r.ok && r.secret.toString('hex')).toBe(EIP_SECRET);
    }
  });

  it('answers Wrong password for the vector without its emoji', async () => {
    expect(await checkKeystore(EIP_PBKDF2, 'testpassword')).toEqual({ ok: false, message: WRONG_PASSWORD });
  });
});

describe('keystores made by another implementation', () => {
  const password = 'Vålidätor ключ 🔑 pass';

  it.each([
    ['scrypt', smallScrypt],
    ['pbkdf2', smallPbkdf2],
  ])('opens a %s keystore with a non-ASCII password', async (_name, kdf) => {
    const made = await makeKeystore(password, kdf());
    const r = await checkKeystore(made.json, password);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.pubkey).toBe(made.pubkey);
    expect(r.secret.toString('hex')).toBe(made.secret);
    expect(blsPublicKeyHex(r.secret)).toBe(made.pubkey);
  });

  it('opens a keystore with the standard scrypt parameters (n = 262144, r = 8, p = 1)', async () => {
    const made = await makeKeystore(EIP_PASSWORD, defaultScryptModule());
    expect(JSON.parse(made.json).crypto.kdf.params.n).toBe(262144);
    const r = await checkKeystore(made.json, EIP_PASSWORD);
    expect(r.ok && r.pubkey).toBe(made.pubkey);
  });

  it('answers Wrong password for another password, for either KDF', async () => {
    for (const kdf of [smallScrypt(), smallPbkdf2()]) {
      const made = await makeKeystore(password, kdf);
      expect(await checkKeystore(made.json, `${password}!`)).toEqual({ ok: false, message: WRONG_PASSWORD });
      expect(await checkKeystore(made.json, '')).toEqual({ ok: false, message: WRONG_PASSWORD });
    }
  });

  it('answers Wrong password when the checksum or the ciphertext was altered', async () => {
    const made = JSON.parse((await makeKeystore(password, smallPbkdf2())).json);
    const badChecksum = clone(made);
    badChecksum.crypto.checksum.message = `${badChecksum.crypto.checksum.message.slice(0, -1)}${badChecksum.crypto.checksum.message.endsWith('0') ? '1' : '0'}`;
    expect(await checkKeystore(badChecksum, password)).toEqual({ ok: false, message: WRONG_PASSWORD });
    const badCipher = clone(made);
    // Its first byte changed for sure (setting it to 00 left one ciphertext in 256 as it was).
    badCipher.crypto.cipher.message = `${badCipher.crypto.cipher.message.startsWith('00') ? 'ff' : '00'}${badCipher.crypto.cipher.message.slice(2)}`;
    expect(await checkKeystore(badCipher, password)).toEqual({ ok: false, message: WRONG_PASSWORD });
  });

  it('refuses a keystore whose public key is not its secret key’s', async () => {
    const other = bls12_381.longSignatures.getPublicKey(bls12_381.utils.randomSecretKey()).toBytes(true);
    const made = await makeKeystore(password, smallPbkdf2(), undefined, other);
    expect(await checkKeystore(made.json, password)).toEqual({
      ok: false,
      message: 'The keystore public key does not match its secret key',
    });
  });

  it('refuses a keystore that decrypts to no BLS secret key (zero, or not below the curve order)', async () => {
    const order = bls12_381.params.r;
    for (const n of [0n, order, order + 5n]) {
      const secret = Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
      const made = await makeKeystore(password, smallPbkdf2(), secret, new Uint8Array(48).fill(0xa0));
      expect(await checkKeystore(made.json, password)).toEqual({
        ok: false,
        message: 'The keystore does not hold a valid BLS12-381 secret key',
      });
    }
  });
});

describe('one upload of several files', () => {
  it('reports per file in order: good ones open, a wrong password or a broken file fails alone, a repeated key once', async () => {
    const a = await makeKeystore('pw', smallPbkdf2());
    const b = await makeKeystore('pw', smallScrypt());
    const other = await makeKeystore('other', smallPbkdf2());
    const sameKeyAgain = await makeKeystore('pw', smallPbkdf2(), Buffer.from(a.secret, 'hex'));
    const files = [
      { name: 'a.json', json: JSON.parse(a.json) },
      { name: 'broken.json', json: { version: 4 } },
      { name: 'b.json', json: JSON.parse(b.json) },
      { name: 'other.json', json: JSON.parse(other.json) },
      { name: 'a-copy.json', json: JSON.parse(sameKeyAgain.json) },
    ];
    const out = await checkKeystoreFiles(files, 'pw');
    expect(out.map((r) => r.name)).toEqual(files.map((f) => f.name));
    expect(out[0].result).toMatchObject({ ok: true, pubkey: a.pubkey });
    expect(out[1].result).toEqual({ ok: false, message: 'Not an EIP-2335 keystore: uuid is missing' });
    expect(out[2].result).toMatchObject({ ok: true, pubkey: b.pubkey });
    expect(out[3].result).toEqual({ ok: false, message: WRONG_PASSWORD });
    expect(out[4].result).toEqual({ ok: false, message: 'This validator key is also in a.json' });
  });
});

describe('what is not a keystore', () => {
  const withKdf = (kdf: object) => ({ ...clone(EIP_SCRYPT), crypto: { ...clone(EIP_SCRYPT.crypto), kdf } });
  const set = (path: string[], value: unknown) => {
    const ks = clone(EIP_SCRYPT) as Record<string, unknown>;
    let o = ks;
    for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
    if (value === undefined) delete o[path.at(-1)!];
    else o[path.at(-1)!] = value;
    return ks;
  };

  it.each([
    ['{', 'Not an EIP-2335 keystore: the file is not JSON'],
    ['', 'Not an EIP-2335 keystore: the file is not JSON'],
    ['[]', 'Not an EIP-2335 keystore: the file does not hold a JSON object'],
    ['null', 'Not an EIP-2335 keystore: the file does not hold a JSON object'],
    ['"keystore"', 'Not an EIP-2335 keystore: the file does not hold a JSON object'],
    ['{}', 'Not an EIP-2335 keystore: version is missing'],
  ])('refuses the text %j', async (text, message) => {
    expect(await checkKeystore(text, 'x')).toEqual({ ok: false, message });
  });

  it.each([
    [['version'], 3, 'version must be 4'],
    [['crypto'], undefined, 'crypto is missing'],
    [['pubkey'], undefined, 'pubkey is missing'],
    [['pubkey'], 'abcd', 'pubkey must be 48 bytes'],
    [['pubkey'], 'zz'.repeat(48), 'pubkey must be hex'],
    [['uuid'], 'not-a-uuid', 'uuid must be a UUID'],
    [['crypto', 'kdf', 'function'], 'argon2id', 'kdf function must be scrypt or pbkdf2'],
    [['crypto', 'kdf', 'params', 'dklen'], 64, 'kdf dklen must be 32'],
    [['crypto', 'checksum', 'function'], 'sha512', 'checksum function must be sha256'],
    [['crypto', 'cipher', 'function'], 'aes-256-cbc', 'cipher function must be aes-128-ctr'],
    [['crypto', 'cipher', 'params', 'iv'], '00', 'cipher iv must be 16 bytes'],
    [['crypto', 'cipher', 'message'], 'abcd', 'cipher message must be 32 bytes'],
  ])('refuses %j = %j: %s', async (path, value, message) => {
    expect(await checkKeystore(set(path as string[], value), EIP_PASSWORD)).toEqual({
      ok: false,
      message: `Not an EIP-2335 keystore: ${message}`,
    });
  });

  it.each([
    [
      { function: 'scrypt', params: { dklen: 32, n: 2 ** 20, r: 8, p: 1, salt: EIP_SALT }, message: '' },
      'scrypt n must be at most 262144 (got 1048576)',
    ],
    [
      { function: 'scrypt', params: { dklen: 32, n: 2 ** 30, r: 8, p: 1, salt: EIP_SALT }, message: '' },
      'scrypt n must be at most 262144 (got 1073741824)',
    ],
    [
      { function: 'scrypt', params: { dklen: 32, n: 100_000, r: 8, p: 1, salt: EIP_SALT }, message: '' },
      'scrypt n must be a power of 2 (got 100000)',
    ],
    [
      { function: 'scrypt', params: { dklen: 32, n: 2 ** 18, r: 64, p: 1, salt: EIP_SALT }, message: '' },
      'scrypt r must be at most 8 (got 64)',
    ],
    [
      { function: 'scrypt', params: { dklen: 32, n: 2 ** 18, r: 8, p: 16, salt: EIP_SALT }, message: '' },
      'scrypt p must be at most 1 (got 16)',
    ],
    [
      { function: 'pbkdf2', params: { dklen: 32, c: 2 ** 31, prf: 'hmac-sha256', salt: EIP_SALT }, message: '' },
      'pbkdf2 c must be at most 262144 (got 2147483648)',
    ],
  ])('refuses absurd KDF parameters at once: %j', async (kdf, why) => {
    const start = performance.now();
    expect(await checkKeystore(withKdf(kdf), EIP_PASSWORD)).toEqual({
      ok: false,
      message: `Keystore refused: its key derivation is too costly (${why})`,
    });
    expect(performance.now() - start).toBeLessThan(100);
  });
});

describe('decryptions off the event loop, a few at a time', () => {
  it('keeps the event loop ticking through 20 concurrent costly scrypt decryptions, at most 2 running', async () => {
    // One keystore of real cost (scrypt n = 2^16: 64 MiB, hundreds of ms each here), opened 20 times at once.
    const made = await makeKeystore('pw', {
      function: 'scrypt',
      params: { dklen: 32, n: 2 ** 16, r: 8, p: 1, salt: randomHex(32) },
    });
    const queue = new BoundedQueue(2, 200);
    // What one derivation costs on this machine now: code that blocked the loop would stall it about this long.
    const t0 = performance.now();
    expect((await checkKeystore(made.json, 'pw', { queue })).ok).toBe(true);
    const one = performance.now() - t0;
    let ticks = 0;
    let mostActive = 0;
    let mostQueued = 0;
    const timer = setInterval(() => {
      ticks++;
      mostActive = Math.max(mostActive, queue.active);
      mostQueued = Math.max(mostQueued, queue.queued);
    }, 5);
    const start = performance.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => checkKeystore(made.json, 'pw', { queue })));
    const took = performance.now() - start;
    clearInterval(timer);
    expect(results.every((r) => r.ok && r.pubkey === made.pubkey)).toBe(true);
    expect(mostActive).toBe(2);
    expect(mostQueued).toBeGreaterThanOrEqual(15);
    // Counted, not timed (a loaded machine stalls any loop now and then): derivations that
    // blocked the loop would let the 5 ms timer run about once between two of them (~20
    // times in all); off the loop it runs all along, many times per derivation.
    expect(took).toBeGreaterThan(one * 5);
    expect(
      ticks,
      `${ticks} timer ticks in ${Math.round(took)} ms (one derivation ${Math.round(one)} ms)`,
    ).toBeGreaterThan(100);
  }, 120_000);

  it('answers busy at once when too many files already wait', async () => {
    const made = await makeKeystore('pw', smallScrypt());
    const queue = new BoundedQueue(1, 2);
    const results = await Promise.all(Array.from({ length: 5 }, () => checkKeystore(made.json, 'pw', { queue })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.message)).toEqual([BUSY, BUSY]);
    expect(queue.active).toBe(0);
  });
});

describe('bounded queue', () => {
  it('drops a waiting task whose signal aborts, and a check whose client left answers Cancelled', async () => {
    const q = new BoundedQueue(1, 10);
    let release!: () => void;
    const blocker = q.run(() => new Promise<void>((r) => (release = r)));
    const gone = new AbortController();
    let ran = false;
    const waiting = q.run(async () => {
      ran = true;
    }, gone.signal);
    const after = q.run(async () => 'after');
    expect(q.queued).toBe(2);
    gone.abort();
    await expect(waiting).rejects.toBeInstanceOf(QueueAbortedError);
    expect(q.queued).toBe(1);
    release();
    await blocker;
    expect(await after).toBe('after');
    expect(ran).toBe(false);
    expect(q.active).toBe(0);

    const made = await makeKeystore('pw', smallPbkdf2());
    const busy = new BoundedQueue(1, 10);
    const left = new AbortController();
    const first = checkKeystore(made.json, 'pw', { queue: busy });
    const second = checkKeystore(made.json, 'pw', { queue: busy, signal: left.signal });
    left.abort();
    expect(await second).toEqual({ ok: false, message: CANCELLED });
    expect((await first).ok).toBe(true);
  });

  it('runs tasks in arrival order, never more than its concurrency, and frees slots on failure', async () => {
    const q = new BoundedQueue(2, 10);
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 3) throw new Error('boom');
      return i;
    };
    const out = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => q.run(task(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(2);
    expect(out[3].status).toBe('rejected');
    expect(q.active).toBe(0);
    expect(q.queued).toBe(0);
  });
});

describe('BLS secret key check (dip003 migration)', () => {
  const order = bls12_381.params.r;
  const h = (n: bigint) => n.toString(16).padStart(64, '0');
  it('accepts real secret keys, as 64 hex characters (0x and spaces tolerated)', () => {
    const sk = hex(bls12_381.utils.randomSecretKey());
    expect(isBlsSecretKey(sk)).toBe(true);
    expect(isBlsSecretKey(sk.toUpperCase())).toBe(true);
    expect(isBlsSecretKey(`0x${sk}`)).toBe(true);
    expect(isBlsSecretKey(` ${sk}\n`)).toBe(true);
    expect(isBlsSecretKey(EIP_SECRET)).toBe(true);
    expect(isBlsSecretKey(h(1n))).toBe(true);
    expect(isBlsSecretKey(h(order - 1n))).toBe(true);
  });
  it.each([
    ['zero', h(0n)],
    ['the curve order', h(order)],
    ['above the order', h(order + 1n)],
    ['all ones', 'f'.repeat(64)],
    ['63 characters', 'a'.repeat(63)],
    ['65 characters', 'a'.repeat(65)],
    ['not hex', 'g'.repeat(64)],
    ['empty', ''],
    ['a public key', EIP_PUBKEY],
  ])('refuses %s', (_name, value) => {
    expect(isBlsSecretKey(value)).toBe(false);
  });
});
