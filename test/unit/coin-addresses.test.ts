import { describe, expect, it } from 'vitest';
import { decodeBase58check, encodeBase58check, isSegwitAddress } from '../../src/shared/address-codec';
import {
  addressChecksum,
  coinAddressProblem,
  notCoinAddress,
  OUTPOINT_INVALID,
  TXID_INVALID,
  txidProblem,
} from '../../src/shared/address-check';
import { addressParams } from '../../src/shared/coin-addresses';
import { deployProblem } from '../../src/shared/deploy-rules';
import { EIP55_MISMATCH } from '../../src/shared/evm-address';
import { freshAddress, MAINNET } from '../support/addresses';

const coin = (id: string, label: string, family = 'dip003', dip003_restrict = false) => ({
  id,
  label,
  family,
  dip003_restrict,
});
const check = (id: string, label: string, value: string) => coinAddressProblem({ id, label }, value);
/** One character of `s` changed at `i`, to another base58 character. */
const typo = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);

describe('segwit decoding (BIP-173, BIP-350)', () => {
  // Bitcoin Core's key_io_valid.json, as syscoin/syscoin v5.0.1 src/test/data/key_io_valid.json carries it (entries 16-19, 48-51).
  it.each([
    'bc1qvyq0cc6rahyvsazfdje0twl7ez82ndmuac2lhv',
    'bc1qyucykdlhp62tezs0hagqury402qwhk589q80tqs5myh3rxq34nwqhkdhv7',
    'bc1p83n3au0rjylefxq2nc2xh2y4jzz4pm6zxj4mw5pagdjjr2a9f36s6jjnnu',
    'bc1z2rksukkjr8',
    'bc1qhxt04s5xnpy0kxw4x99n5hpdf5pmtzpqs52es2',
    'bc1pve739yap4uxjvfk0jrey69078u0gasm2nwvv483ec6zkzulgw9xqu4w9fd',
    'BC1QHXT04S5XNPY0KXW4X99N5HPDF5PMTZPQS52ES2',
  ])('takes the valid mainnet vector %s', (address) => {
    expect(isSegwitAddress(address, 'bc')).toBe(true);
    expect(isSegwitAddress(address, 'sys')).toBe(false);
  });

  // key_io_invalid.json of the same copy (entries 14, 17, 20, 23, 41): wrong checksum kind, length or program.
  it.each([
    'bc10uexgzna2dpfk0vjt35srz6a27ps6m0l89jweznt83n2sqn2fx4hvn9ym5af8wut34sfrqhk3',
    'bc1qdsuzmn04k2z8vryw8l4dj8m5ygqgnne5n',
    'bc1qpu6d26mrulzetu4jqhd7rsunv9aqru26f5c4j8',
    'bc1p702xksx4z3uqf0u2phllxkfe5cgu0adxptqs0uelx0tqt8e885sqryes2l',
    'bc1gmk9yu',
    // Mixed case is refused (BIP-173).
    'bc1QHXT04S5XNPY0KXW4X99N5HPDF5PMTZPQS52ES2',
  ])('refuses the invalid vector %s', (address) => {
    expect(isSegwitAddress(address, 'bc')).toBe(false);
  });
});

describe('base58check', () => {
  it('decodes a real address to its version and hash, and finds a changed character', () => {
    const d = decodeBase58check(MAINNET.dash);
    expect(d.ok && d.bytes.length).toBe(21);
    expect(d.ok && d.bytes[0]).toBe(76);
    expect(decodeBase58check(typo(MAINNET.dash, 12))).toEqual({ ok: false, why: 'checksum' });
    expect(decodeBase58check('0OIl')).toEqual({ ok: false, why: 'alphabet' });
    expect(encodeBase58check((d as { bytes: Uint8Array }).bytes)).toBe(MAINNET.dash);
  });
});

describe("each coin's mainnet addresses (src/shared/coin-addresses.ts)", () => {
  it.each([
    ['dash', 'Dash', MAINNET.dash],
    ['firo', 'Firo', MAINNET.firo],
    ['sys', 'Syscoin', MAINNET.sys],
    ['sys', 'Syscoin', MAINNET.sysBase58],
    ['pac', 'PACGlobal', MAINNET.pac],
    ['gbx', 'GoByte', MAINNET.gbx],
    ['axe', 'Axe', MAINNET.axe],
    ['bitg', 'Bitcoin Green (BitGreen)', MAINNET.bitg],
    ['rtm', 'Raptoreum', MAINNET.rtm],
    ['neox', 'Neoxa', MAINNET.neox],
    ['blocx', 'BLOCX', MAINNET.blocx],
    ['zen42', 'Horizen Secure Node', MAINNET.zen],
    ['zen500', 'Horizen Super Node', MAINNET.zenScript],
    ['satori', 'Satori Network', MAINNET.evr],
    ['nrg', 'Energi', MAINNET.nrg],
    ['nrg', 'Energi', MAINNET.nrg.toLowerCase()],
  ])('%s takes its real address %s', (id, label, address) => {
    expect(check(id, label, address)).toBeNull();
    expect(check(id, label, ` ${address} `)).toBeNull();
  });

  it('says how each coin’s addresses start, computed from its version bytes', () => {
    expect(check('dash', 'Dash', 'abc')).toBe(notCoinAddress('Dash', ['X', '7']));
    expect(check('rtm', 'Raptoreum', 'abc')).toBe('This is not a Raptoreum address: it should start with R or 7.');
    expect(check('sys', 'Syscoin', 'abc')).toBe('This is not a Syscoin address: it should start with S, 3 or sys1.');
    expect(check('blocx', 'BLOCX', 'abc')).toBe('This is not a BLOCX address: it should start with B.');
  });

  it('refuses the issue’s nonsense with what is wrong', () => {
    expect(check('firo', 'Firo', 'notanaddress')).toBe(
      'This is not a Firo address: it should start with Z, a, 3 or 4.',
    );
    expect(check('zen42', 'Horizen Secure Node', 'hello')).toBe(
      'This is not a Horizen address: it should start with zn, t1, zs, zt or t3.',
    );
    expect(check('satori', 'Satori Network', 'abc')).toBe(
      'This is not an Evrmore address: it should start with E or e.',
    );
    expect(check('nrg', 'Energi', 'hello')).toBe(
      'This is not an Energi address: it is 0x followed by 40 characters, the digits 0-9 and the letters a-f.',
    );
  });

  it('tells a typo (right start, wrong checksum) and a cut-off address apart from another coin’s address', () => {
    expect(check('dash', 'Dash', typo(MAINNET.dash, 20))).toBe(addressChecksum('Dash'));
    expect(check('dash', 'Dash', MAINNET.dash.slice(0, -3))).toBe(
      'This is not a whole Dash address: it is 34 characters long.',
    );
    // Another coin's real address: a valid checksum, the wrong version byte.
    expect(check('dash', 'Dash', MAINNET.firo)).toBe(notCoinAddress('Dash', ['X', '7']));
    expect(check('gbx', 'GoByte', MAINNET.neox)).toBeNull(); // both use version 38 for keys: the same address
    expect(check('neox', 'Neoxa', freshAddress('gbx', 'P2SH'))).not.toBeNull();
    expect(check('sys', 'Syscoin', typo(MAINNET.sys, 10))).toBe(addressChecksum('Syscoin'));
    expect(check('nrg', 'Energi', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(EIP55_MISMATCH);
  });

  it('knows the parameters of every coin whose deploy takes an address', () => {
    for (const id of [
      'dash',
      'firo',
      'sys',
      'pac',
      'gbx',
      'axe',
      'bitg',
      'rtm',
      'neox',
      'blocx',
      'zen42',
      'zen500',
      'nrg',
      'satori',
    ])
      expect(addressParams(id), id).not.toBeNull();
  });
});

describe('transaction IDs', () => {
  const txid = 'ab'.repeat(32);
  it('is 64 hex characters, with the output index where the line carries one', () => {
    for (const t of [txid, txid.toUpperCase(), `${txid}-1`, `${txid}:12`, `${txid} 0`, ` ${txid} `])
      expect(txidProblem(t, true), t).toBeNull();
    expect(txidProblem(txid, false)).toBeNull();
    expect(txidProblem(`${txid}-1`, false)).toBe(TXID_INVALID);
    for (const t of ['not-a-txid', 'abc', txid.slice(1), `${txid}a`, `${txid.slice(1)}g`, `${txid}-x`])
      expect(txidProblem(t, true), t).toBe(OUTPOINT_INVALID);
  });
});

describe('deployProblem runs the coin’s rules for the wizard and the server', () => {
  const tx = 'cd'.repeat(32);
  it.each([
    [coin('dash', 'Dash'), { txid: 'not-a-txid' }, 'txid', OUTPOINT_INVALID],
    [coin('pivx', 'PIVX', 'classic'), { txid: 'abc' }, 'txid', OUTPOINT_INVALID],
    [coin('defi', 'DeFiChain', 'defi'), { txid: 'abc' }, 'txid', TXID_INVALID],
    [
      coin('zen42', 'Horizen Secure Node', 'zen'),
      { txid: 'hello' },
      'txid',
      'This is not a Horizen address: it should start with zn, t1, zs, zt or t3.',
    ],
    [
      coin('satori', 'Satori Network', 'satori'),
      { rewardAddress: 'abc' },
      'rewardAddress',
      'This is not an Evrmore address: it should start with E or e.',
    ],
    [
      coin('firo', 'Firo'),
      { txid: tx, payee: 'notanaddress' },
      'payee',
      'This is not a Firo address: it should start with Z, a, 3 or 4.',
    ],
    [coin('sin', 'SINOVATE', 'sin'), { txid: tx, burntxid: 'abc' }, 'burntxid', TXID_INVALID],
  ] as const)('%j %j: %s', (c, input, field, message) => {
    expect(deployProblem(c, input)).toEqual({ field, message });
  });

  it('keeps the Beldex/Oxen prefixes, the BITG payee rule, and a license key as typed', () => {
    expect(deployProblem(coin('bdx', 'Beldex', 'monero'), { txid: 'bAnyBeldexAddress' })).toBeNull();
    expect(deployProblem(coin('oxen', 'Oxen', 'monero'), { txid: 'x1' })?.message).toBe(
      'Address is not valid: an Oxen address starts with "L".',
    );
    expect(
      deployProblem(coin('bitg', 'BitGreen', 'dip003_restrict', true), { txid: tx, payee: MAINNET.bitg })?.message,
    ).toBe('Correct payee address required.');
    expect(
      deployProblem(coin('bitg', 'BitGreen', 'dip003_restrict', true), {
        txid: tx,
        payee: freshAddress('bitg', 'P2SH'),
      }),
    ).toBeNull();
    expect(deployProblem(coin('playa3ull', 'PLAYA3ULL', 'playa3ull'), { txid: 'LIC-anything' })).toBeNull();
    // A migration sends no txid: nothing to check.
    expect(deployProblem(coin('dash', 'Dash'), { txid: '', migrate: true, blsKey: 'ab'.repeat(32) })).toBeNull();
  });
});
