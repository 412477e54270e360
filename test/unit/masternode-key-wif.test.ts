import fs from 'node:fs';
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/server/coins/catalog-file';
import { BITCOIN_WIF_PREFIX, masternodeKeyWif } from '../../src/server/deploy/node-keys';
import { outputKind } from '../../src/server/nodes/output-text';

// A classic coin's wallet takes a masternodeprivkey only with its own secret-key prefix
// (chainparams.cpp `base58Prefixes[SECRET_KEY]`). Decoded here by a base58 reader of the
// test's own, not the code under test.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58Decode(s: string): Uint8Array {
  let n = 0n;
  for (const ch of s) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error(`not base58: ${ch}`);
    n = n * 58n + BigInt(v);
  }
  const hex = n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = s.length - s.replace(/^1+/, '').length;
  return Uint8Array.from([...new Uint8Array(zeros), ...body]);
}

function decodeWif(wif: string) {
  const bytes = base58Decode(wif);
  const payload = bytes.subarray(0, bytes.length - 4);
  const checksumOk = Buffer.from(sha256(sha256(payload)).subarray(0, 4)).equals(
    Buffer.from(bytes.subarray(bytes.length - 4)),
  );
  return {
    prefix: payload[0],
    secret: payload.subarray(1, 33),
    compressed: payload.length === 34 && payload[33] === 0x01,
    checksumOk,
    length: payload.length,
  };
}

const catalog = parseCatalog(fs.readFileSync('catalog/coins.json', 'utf8'), 'catalog/coins.json');
const keyed = catalog.filter((c) => outputKind(c.family) === 'masternode_conf');

/** Read from each coin's chainparams.cpp (main network); see the coin's `sources` in the catalog. */
const EXPECTED: Record<string, number> = {
  pivx: 212,
  sin: 191,
  xsn: 204,
  vitae: 212,
  nix: 128,
  crw: 128,
  polis: 60,
  phr: 212,
  chc: 156,
  dogec: 122,
  abs: 110,
  bwk: 212,
  ion: 153,
  mue: 126,
  flux: 128,
};
/** No chainparams found: Bitcoin's prefix, recorded as unverified in the catalog's source note. */
const UNVERIFIED = ['znn'];

describe('masternode keys in wallet import format, per coin', () => {
  it('every coin whose nodes take a masternode.conf key names its prefix in the catalog (or is listed as unverified)', () => {
    expect(keyed.map((c) => c.id).sort()).toEqual([...Object.keys(EXPECTED), ...UNVERIFIED].sort());
    for (const c of keyed) expect([c.id, c.details.wif_prefix]).toEqual([c.id, EXPECTED[c.id]]);
    for (const id of UNVERIFIED)
      expect(catalog.find((c) => c.id === id)!.details.source_note).toMatch(/wif_prefix.*not verified/);
  });

  it.each(keyed.map((c) => [c.id, c.details.wif_prefix ?? BITCOIN_WIF_PREFIX] as const))(
    '%s: prefix %i, a valid checksum, a compressed secp256k1 secret',
    (_id, prefix) => {
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const wif = masternodeKeyWif(prefix);
        expect(wif).toMatch(/^[1-9A-HJ-NP-Za-km-z]{51,52}$/);
        const d = decodeWif(wif);
        expect(d).toMatchObject({ prefix, checksumOk: true, compressed: true, length: 34 });
        expect(secp256k1.utils.isValidSecretKey(d.secret)).toBe(true);
        seen.add(wif);
      }
      expect(seen.size).toBe(20);
    },
  );

  it('known first characters: PIVX keys start with Y, Bitcoin-prefix keys with K or L, SIN with V', () => {
    expect(masternodeKeyWif(212)).toMatch(/^Y/);
    expect(masternodeKeyWif(128)).toMatch(/^[KL]/);
    expect(masternodeKeyWif(191)).toMatch(/^V/);
  });

  it('a prefix that is not one byte is refused, and one flipped character breaks the checksum', () => {
    expect(() => masternodeKeyWif(256)).toThrow(RangeError);
    expect(() => masternodeKeyWif(-1)).toThrow(RangeError);
    const wif = masternodeKeyWif(212);
    const i = 10;
    const flipped = wif.slice(0, i) + (wif[i] === 'a' ? 'b' : 'a') + wif.slice(i + 1);
    expect(decodeWif(flipped).checksumOk).toBe(false);
  });

  it('the catalog refuses a wif_prefix that is not a byte', () => {
    const text = fs.readFileSync('catalog/coins.json', 'utf8');
    const bad = (value: unknown) => {
      const j = JSON.parse(text);
      j.coins.find((c: { id: string }) => c.id === 'pivx').wif_prefix = value;
      return () => parseCatalog(JSON.stringify(j), 'c.json');
    };
    expect(bad(256)).toThrow(/coin pivx\.wif_prefix: must be 0-255/);
    expect(bad(12.5)).toThrow(/coin pivx\.wif_prefix: must be a whole number/);
    expect(bad('212')).toThrow(/coin pivx\.wif_prefix: must be a number/);
  });
});
