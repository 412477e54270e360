import { randomBytes } from 'node:crypto';
import { encodeBase58check } from '../../src/shared/address-codec';
import { addressParams } from '../../src/shared/coin-addresses';

/**
 * Real mainnet addresses, one or more per coin, each read from the coin's own source
 * (the file and line beside it), for tests that need an address the coin accepts.
 */
export const MAINNET = {
  // dashpay/dash src/chainparams.cpp CMainParams vSporkAddresses (commit 00dab8b).
  dash: 'Xgtyuk76vhuFW2iT7UAiHgNdWXCf3J34wh',
  // firoorg/firo v0.14.14.1 src/chainparams.cpp:205 (stage2DevelopmentFundAddress).
  firo: 'aFrAVZFr8pva5mG8XKaUH8EXcFVVNxLiuB',
  // syscoin/syscoin v5.0.1 src/kernel/chainparams.cpp:250 (bech32) and src/test/key_tests.cpp:25.
  sys: 'sys1qx0zzzjag402apkw4kn8unr0qa0k3pv3258v4sr',
  sysBase58: 'SkYqsCFMoSkgZh5gqzses71yRWZsvBTYTA',
  // PACGlobalOfficial/PAC v0.15.2 src/chainparams.cpp:382 (spork address).
  pac: 'PGtvidAAsW6a9tMBKmdh2tZ1B3SxFDpdXP',
  // gobytecoin/gobyte v0.16.2.2 src/chainparams.cpp:445 (spork address).
  gbx: 'GS7REhk1msjCJsmcUdSdpgYBiiyjA1eM6Z',
  // AXErunners/axe v1.6.0.0 src/chainparams.cpp:435 (spork address).
  axe: 'PR8VqUyRm1Dm9tii6uv9D7gidWyA56SvqZ',
  // bitgreen/bitgreen v1.6.0.2 src/chainparams.cpp:256 (spork address).
  bitg: 'GMWbuDW6m6WCc7Zc9W3CSuviXzqPKK3eBj',
  // Raptor3um/raptoreum 2.0.3.01-mainnet src/chainparams.cpp:316 (spork address).
  rtm: 'RWGvGpd3yJdnfh9ziyHNDEoHMJBvnZ23zK',
  // NeoxaChain/Neoxa v5.1.1.4 src/chainparams.cpp:496 (spork address).
  neox: 'GdJwLvyP6jgJxtA2MEdonzcC9dj8XLsurZ',
  // BLOCXTECH/BLOCX v4.0.3 src/chainparams.cpp:186 (DevelopmentFundAddress).
  blocx: 'B4ZQyV266uUDFyJa3vr7D7RV9TD18Th3Dp',
  // HorizenOfficial/zen v5.0.6 src/test/data/base58_keys_valid.json:3 (mainnet pubkey) and src/gtest/test_checkblock.cpp:400.
  zen: 'znc3p7CFNTsz1s6CceskrTxKevQLPoDK4cK',
  zenScript: 'zsyF68hcYYNLPj5i4PfQJ1kUY6nsFnZkc82',
  // EvrmoreOrg/Evrmore v1.0.5.1 src/chainparams.cpp:324 (the asset-issue burn address, a valid mainnet P2PKH).
  evr: 'EXissueAssetXXXXXXXXXXXXXXXXYiYRBD',
  // EIP-55's own example (an Energi Gen 3 address is an Ethereum one).
  nrg: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
} as const;

/** A fresh, valid mainnet address of the coin (a random hash): for tests that need many. */
export function freshAddress(coinId: string, kind: 'P2PKH' | 'P2SH' = 'P2PKH'): string {
  const p = addressParams(coinId);
  if (!p) throw new Error(`no address parameters for ${coinId}`);
  if (p.encoding === 'evm') return `0x${randomBytes(20).toString('hex')}`;
  const v = p.versions.find((x) => x.kind === kind)!;
  return encodeBase58check(Uint8Array.from([...v.bytes, ...randomBytes(20)]));
}
