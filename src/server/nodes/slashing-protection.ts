/**
 * The EIP-3076 slashing-protection interchange file (format version 5) for a validator
 * that leaves this platform, so that the next client to run its key refuses to sign
 * anything that could conflict with what our node already signed.
 *
 * We record what the node last signed, not its whole history: the "minimal" form of the
 * EIP, which importing clients treat as "never sign at or below these". Signing roots are
 * left out (optional in the EIP); a client then refuses even to re-sign the same block.
 */
export const INTERCHANGE_FORMAT_VERSION = '5';
/** Ethereum mainnet's genesis validators root. */
export const MAINNET_GENESIS_VALIDATORS_ROOT = '0x4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95';

type Uint64 = number | bigint | string;

export type SignedHistory = {
  /** The validator's BLS public key, 48 bytes hex (0x optional). */
  pubkey: string;
  /** The chain's genesis validators root, 32 bytes hex (0x optional). */
  genesisValidatorsRoot: string;
  /** Slot of the last block proposal it signed; absent: it never proposed. */
  lastBlockSlot?: Uint64 | null;
  /** Epochs of the last attestation it signed; absent: it never attested. */
  lastSourceEpoch?: Uint64 | null;
  lastTargetEpoch?: Uint64 | null;
};

export type Interchange = {
  metadata: { interchange_format_version: '5'; genesis_validators_root: string };
  data: Array<{
    pubkey: string;
    signed_blocks: Array<{ slot: string }>;
    signed_attestations: Array<{ source_epoch: string; target_epoch: string }>;
  }>;
};

export class SlashingProtectionError extends Error {
  override readonly name = 'SlashingProtectionError';
}

const MAX_UINT64 = 2n ** 64n - 1n;

function uint64(value: Uint64, what: string): bigint {
  const n =
    typeof value === 'bigint'
      ? value
      : typeof value === 'number'
        ? Number.isSafeInteger(value)
          ? BigInt(value)
          : -1n
        : /^\d{1,20}$/.test(value)
          ? BigInt(value)
          : -1n;
  if (n < 0n || n > MAX_UINT64) throw new SlashingProtectionError(`${what} must be a whole number from 0 to 2^64-1`);
  return n;
}

function hexBytes(value: string, bytes: number, what: string): string {
  const h = value.trim().replace(/^0x/i, '').toLowerCase();
  if (!new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(h))
    throw new SlashingProtectionError(`${what} must be ${bytes} bytes of hex`);
  return `0x${h}`;
}

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

export function slashingProtectionInterchange(h: SignedHistory): Interchange {
  const signed_blocks = present(h.lastBlockSlot)
    ? [{ slot: uint64(h.lastBlockSlot, 'last block slot').toString() }]
    : [];
  let signed_attestations: Interchange['data'][number]['signed_attestations'] = [];
  if (present(h.lastTargetEpoch)) {
    const target = uint64(h.lastTargetEpoch, 'last target epoch');
    // Without the source, recording it as the target is the safe side: a client then
    // signs only attestations with source and target beyond it, which can neither
    // double-vote nor surround any earlier vote.
    const source = present(h.lastSourceEpoch) ? uint64(h.lastSourceEpoch, 'last source epoch') : target;
    if (source > target) throw new SlashingProtectionError('last source epoch must not be after the last target epoch');
    signed_attestations = [{ source_epoch: source.toString(), target_epoch: target.toString() }];
  } else if (present(h.lastSourceEpoch)) {
    // A source alone cannot bound the next target: no record would be a safe one.
    throw new SlashingProtectionError('a last source epoch without its target epoch cannot be recorded safely');
  }
  return {
    metadata: {
      interchange_format_version: INTERCHANGE_FORMAT_VERSION,
      genesis_validators_root: hexBytes(h.genesisValidatorsRoot, 32, 'genesis validators root'),
    },
    data: [{ pubkey: hexBytes(h.pubkey, 48, 'pubkey'), signed_blocks, signed_attestations }],
  };
}

/** The download's file name, as clients name these files. */
export function interchangeFileName(pubkey: string): string {
  return `slashing-protection-${hexBytes(pubkey, 48, 'pubkey').slice(2, 14)}.json`;
}
