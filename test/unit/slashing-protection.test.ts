import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  interchangeFileName,
  MAINNET_GENESIS_VALIDATORS_ROOT,
  SlashingProtectionError,
  slashingProtectionInterchange,
} from '../../src/server/nodes/slashing-protection';

// EIP-3076 (https://eips.ethereum.org/EIPS/eip-3076), format version 5, written out from the EIP's JSON schema.
const u64 = v.pipe(
  v.string(),
  v.regex(/^(0|[1-9]\d{0,19})$/),
  v.check((s) => BigInt(s) < 2n ** 64n),
);
const hex = (bytes: number) => v.pipe(v.string(), v.regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`)));
const Interchange = v.strictObject({
  metadata: v.strictObject({ interchange_format_version: v.literal('5'), genesis_validators_root: hex(32) }),
  data: v.array(
    v.strictObject({
      pubkey: hex(48),
      signed_blocks: v.array(v.strictObject({ slot: u64, signing_root: v.optional(hex(32)) })),
      signed_attestations: v.array(
        v.pipe(
          v.strictObject({ source_epoch: u64, target_epoch: u64, signing_root: v.optional(hex(32)) }),
          v.check((a) => BigInt(a.source_epoch) <= BigInt(a.target_epoch), 'source after target'),
        ),
      ),
    }),
  ),
});

const PUBKEY = '9612d7a727c9d0a22e185a1c768478dfe919cada9266988cb32359c11f2b7b27f4ae4040902382ae2910c15e2b420d07';

function valid(x: unknown) {
  const r = v.safeParse(Interchange, JSON.parse(JSON.stringify(x)));
  if (!r.success) throw new Error(r.issues.map((i) => `${v.getDotPath(i)}: ${i.message}`).join('; '));
  return r.output;
}

describe('EIP-3076 slashing-protection interchange', () => {
  it('records the last block and attestation a validator signed', () => {
    const out = valid(
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        lastBlockSlot: 81952,
        lastSourceEpoch: 2290,
        lastTargetEpoch: '3007',
      }),
    );
    expect(out).toEqual({
      metadata: { interchange_format_version: '5', genesis_validators_root: MAINNET_GENESIS_VALIDATORS_ROOT },
      data: [
        {
          pubkey: `0x${PUBKEY}`,
          signed_blocks: [{ slot: '81952' }],
          signed_attestations: [{ source_epoch: '2290', target_epoch: '3007' }],
        },
      ],
    });
  });

  it('gives empty lists for a validator that never signed', () => {
    const out = valid(
      slashingProtectionInterchange({
        pubkey: `0x${PUBKEY.toUpperCase()}`,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT.slice(2),
      }),
    );
    expect(out.data).toEqual([{ pubkey: `0x${PUBKEY}`, signed_blocks: [], signed_attestations: [] }]);
    expect(out.metadata.genesis_validators_root).toBe(MAINNET_GENESIS_VALIDATORS_ROOT);
  });

  it('keeps each part independent: blocks only, attestations only', () => {
    const blocks = valid(
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        lastBlockSlot: 0n,
        lastTargetEpoch: null,
      }),
    );
    expect(blocks.data[0]).toMatchObject({ signed_blocks: [{ slot: '0' }], signed_attestations: [] });
    const atts = valid(
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        lastSourceEpoch: 0,
        lastTargetEpoch: 1,
      }),
    );
    expect(atts.data[0]).toMatchObject({
      signed_blocks: [],
      signed_attestations: [{ source_epoch: '0', target_epoch: '1' }],
    });
  });

  it('writes uint64 values beyond 2^53 exactly', () => {
    const big = 2n ** 64n - 1n;
    const out = valid(
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        lastBlockSlot: big,
        lastSourceEpoch: '9007199254740993',
        lastTargetEpoch: big,
      }),
    );
    expect(out.data[0].signed_blocks[0].slot).toBe('18446744073709551615');
    expect(out.data[0].signed_attestations[0].source_epoch).toBe('9007199254740993');
  });

  it('records a target without its source as source = target (the safe side)', () => {
    const out = valid(
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        lastTargetEpoch: 3007,
      }),
    );
    expect(out.data[0].signed_attestations).toEqual([{ source_epoch: '3007', target_epoch: '3007' }]);
  });

  it.each([
    [{ lastSourceEpoch: 5 }, 'cannot be recorded safely'],
    [{ lastSourceEpoch: 6, lastTargetEpoch: 5 }, 'must not be after'],
    [{ lastBlockSlot: -1 }, 'last block slot must be a whole number'],
    [{ lastBlockSlot: 1.5 }, 'last block slot must be a whole number'],
    [{ lastBlockSlot: 2 ** 60 }, 'last block slot must be a whole number'],
    [{ lastBlockSlot: '18446744073709551616' }, 'last block slot must be a whole number'],
    [{ lastTargetEpoch: '12a' }, 'last target epoch must be a whole number'],
    [{ pubkey: PUBKEY.slice(2) }, 'pubkey must be 48 bytes of hex'],
    [{ genesisValidatorsRoot: '0x1234' }, 'genesis validators root must be 32 bytes of hex'],
  ])('refuses %j', (patch, message) => {
    expect(() =>
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        ...patch,
      }),
    ).toThrow(SlashingProtectionError);
    expect(() =>
      slashingProtectionInterchange({
        pubkey: PUBKEY,
        genesisValidatorsRoot: MAINNET_GENESIS_VALIDATORS_ROOT,
        ...patch,
      }),
    ).toThrow(message);
  });

  it('names the download after the key', () => {
    expect(interchangeFileName(`0x${PUBKEY}`)).toBe('slashing-protection-9612d7a727c9.json');
  });

  it('(control) the test schema refuses what the EIP forbids', () => {
    expect(() =>
      valid({
        metadata: { interchange_format_version: 5, genesis_validators_root: MAINNET_GENESIS_VALIDATORS_ROOT },
        data: [],
      }),
    ).toThrow();
    expect(() =>
      valid({
        metadata: { interchange_format_version: '5', genesis_validators_root: MAINNET_GENESIS_VALIDATORS_ROOT },
        data: [{ pubkey: `0x${PUBKEY}`, signed_blocks: [{ slot: 5 }], signed_attestations: [] }],
      }),
    ).toThrow();
  });
});
