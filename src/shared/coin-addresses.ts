/**
 * Each coin's MAINNET address parameters, as its own daemon decodes addresses: the
 * base58check version bytes of its P2PKH and P2SH addresses (chainparams.cpp
 * `base58Prefixes`) and, where it has segwit, its bech32 human-readable part
 * (`bech32_hrp`). Each value is cited where it was read: repository, tag (or the commit
 * read where the tag could not be), file and line. Keyed by catalog coin id; a coin not
 * listed has no address the customer types, or one of another kind (monero type:
 * families.ts `addressPrefix`).
 */
export type Base58Version = { bytes: readonly number[]; kind: 'P2PKH' | 'P2SH' };
/** `network`: whose address it is, when not the coin's label (a Horizen Secure Node takes a Horizen address). */
export type AddressParams =
  | { encoding: 'base58'; versions: readonly Base58Version[]; hrp?: string; network?: string }
  /** 0x and 20 bytes in hex, EIP-55 checksummed when mixed case (go-ethereum's `common.Address`). */
  | { encoding: 'evm'; network?: string };

const p2pkh = (...bytes: number[]): Base58Version => ({ bytes, kind: 'P2PKH' });
const p2sh = (...bytes: number[]): Base58Version => ({ bytes, kind: 'P2SH' });

// dashpay/dash src/chainparams.cpp, CMainParams: PUBKEY_ADDRESS 76 ("Dash addresses start
// with 'X'"), SCRIPT_ADDRESS 16. Read at commit 00dab8b1869e83a5761b4861e5e867f0b0a9fa8b:
// the pinned tag v22.1.3 is over the fetch limit (catalog/daemon-facts/dashd.json).
const DASH: AddressParams = { encoding: 'base58', versions: [p2pkh(76), p2sh(16)] };

// firoorg/firo v0.14.14.1 src/chainparams.cpp:367 PUBKEY_ADDRESS 82, :368 SCRIPT_ADDRESS 7.
const FIRO: AddressParams = { encoding: 'base58', versions: [p2pkh(82), p2sh(7)] };

// syscoin/syscoin v5.0.1 src/kernel/chainparams.cpp:238 PUBKEY_ADDRESS 63, :239 SCRIPT_ADDRESS 5;
// bech32_hrp "sys" (src/kernel/chainparams.h:165, MainNetOptions, taken at chainparams.cpp:244).
const SYS: AddressParams = { encoding: 'base58', versions: [p2pkh(63), p2sh(5)], hrp: 'sys' };

// PACGlobalOfficial/PAC v0.15.2 src/chainparams.cpp:349 PUBKEY_ADDRESS 55, :351 SCRIPT_ADDRESS 10.
const PAC: AddressParams = { encoding: 'base58', versions: [p2pkh(55), p2sh(10)] };

// gobytecoin/gobyte v0.16.2.2 src/chainparams.cpp:409 PUBKEY_ADDRESS 38, :411 SCRIPT_ADDRESS 10.
const GBX: AddressParams = { encoding: 'base58', versions: [p2pkh(38), p2sh(10)] };

// AXErunners/axe v1.6.0.0 src/chainparams.cpp:399 PUBKEY_ADDRESS 55, :401 SCRIPT_ADDRESS 16.
const AXE: AddressParams = { encoding: 'base58', versions: [p2pkh(55), p2sh(16)] };

// bitgreen/bitgreen v1.6.0.2 src/chainparams.cpp:231 PUBKEY_ADDRESS 38, :232 SCRIPT_ADDRESS 6,
// :237 bech32_hrp "bg". (Its payee must also start with 3: deploy-rules.ts, section 5.)
const BITG: AddressParams = { encoding: 'base58', versions: [p2pkh(38), p2sh(6)], hrp: 'bg' };

// Raptor3um/raptoreum tag 2.0.3.01-mainnet src/chainparams.cpp:260 PUBKEY_ADDRESS 60,
// :262 SCRIPT_ADDRESS 16.
const RTM: AddressParams = { encoding: 'base58', versions: [p2pkh(60), p2sh(16)] };

// NeoxaChain/Neoxa v5.1.1.4 src/chainparams.cpp:454 PUBKEY_ADDRESS 38, :455 SCRIPT_ADDRESS 122.
const NEOX: AddressParams = { encoding: 'base58', versions: [p2pkh(38), p2sh(122)] };

// BLOCXTECH/BLOCX v4.0.3 src/chainparams.cpp:294 PUBKEY_ADDRESS 25, :296 SCRIPT_ADDRESS 26.
const BLOCX: AddressParams = { encoding: 'base58', versions: [p2pkh(25), p2sh(26)] };

// HorizenOfficial/zen v5.0.6 src/chainparams.cpp:110 PUBKEY_ADDRESS {0x20,0x89} ("zn"),
// :111 PUBKEY_ADDRESS_OLD {0x1C,0xB8} ("t1"), :114 SCRIPT_ADDRESS {0x20,0x96} ("zs"),
// :115 SCRIPT_ADDRESS_OLD {0x1C,0xBD} ("t3").
const ZEN: AddressParams = {
  encoding: 'base58',
  versions: [p2pkh(0x20, 0x89), p2pkh(0x1c, 0xb8), p2sh(0x20, 0x96), p2sh(0x1c, 0xbd)],
  network: 'Horizen',
};

// Energi Gen 3 is an Ethereum client: energicryptocurrency/go-energi common/types.go
// (AddressLength = 20, IsHexAddress, Address.Hex's EIP-55 form), read at commit
// 3d15a94b9ce59c45a2d9e87d8e9d1d4455216833 (catalog/daemon-facts/energi3.json pins v1.1.8).
const NRG: AddressParams = { encoding: 'evm' };

// SATORI is an asset on Evrmore, and a neuron's rewards go to an Evrmore address:
// EvrmoreOrg/Evrmore v1.0.5.1 src/chainparams.cpp:270 PUBKEY_ADDRESS 33 ('E'), :271 SCRIPT_ADDRESS 92 ('e').
const EVR: AddressParams = { encoding: 'base58', versions: [p2pkh(33), p2sh(92)], network: 'Evrmore' };

const BY_COIN: Record<string, AddressParams> = {
  dash: DASH,
  firo: FIRO,
  sys: SYS,
  pac: PAC,
  gbx: GBX,
  axe: AXE,
  bitg: BITG,
  rtm: RTM,
  neox: NEOX,
  blocx: BLOCX,
  zen42: ZEN,
  zen500: ZEN,
  nrg: NRG,
  satori: EVR,
};

/** The coin's address parameters, or null when the platform knows none for it. */
export function addressParams(coinId: string): AddressParams | null {
  return BY_COIN[coinId] ?? null;
}
