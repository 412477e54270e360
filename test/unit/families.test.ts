import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployProblem, fieldNotTaken, payloadProblem } from '../../src/shared/deploy-rules';
import { coinWords, FAMILIES, FAMILY, familyOf, takesField, type Family } from '../../src/shared/families';
import { deployServerInput, deployValidatorsInput } from '../../src/shared/schemas/deploy';
import { UPLOAD_FIELDS, type PayloadField } from '../../src/shared/schemas/deploy-payload';
import { loadProfiles, simulatorProfileId } from '../../src/server/fleet/profiles';

// The family registry: one payload schema per family, each taking its own deploy's
// fields and refusing every other family's; the transport schemas are made of the same
// fields; the fleet's fallback daemon profile follows the family's RPC.

const tx = 'a'.repeat(64);
const keystore = { name: 'keystore-m_12381_3600_0_0_0.json', text: '{}' };

/** A deploy each family's wizard would send, with nothing left out that the family takes. */
const VALID: Record<Family, Record<string, unknown>> = {
  dip003: { txid: tx, payee: 'XpayeeAddress', blsKey: '1'.repeat(64), migrate: true },
  dip003_restrict: { txid: tx, payee: '3PayeeAddress' },
  smartnode: { txid: `${tx}-1`, payee: 'RpayeeAddress' },
  classic: { txid: tx },
  zen: { txid: 'znAddress' },
  nrg: { txid: 'EnergiAddress' },
  monero: { txid: 'bAddress', monero_secret: 'c'.repeat(64) },
  playa3ull: { txid: 'LIC-1' },
  satori: { rewardAddress: 'SrewardAddress', neuronCount: 3 },
  sin: { txid: tx, burntxid: 'b'.repeat(64), burn_output_id: 1 },
  evm: { password: 'correct horse', fee_recipient: '0x' + '1'.repeat(40), keystores: [keystore] },
  defi: { txid: tx },
};

/** A value of the right shape for every field, to offer each family the others' fields. */
const SAMPLE: Record<PayloadField, unknown> = {
  txid: tx,
  payee: 'Payee',
  blsKey: '1'.repeat(64),
  migrate: true,
  monero_secret: 'secret',
  burntxid: 'b'.repeat(64),
  burn_output_id: 1,
  rewardAddress: 'Reward',
  neuronCount: 2,
  password: 'pw',
  fee_recipient: '0x' + '1'.repeat(40),
  keystores: [keystore],
};
const ALL_FIELDS = Object.keys(SAMPLE) as PayloadField[];

const coin = (family: Family) => ({
  id: `coin-${family}`,
  label: `Coin ${family}`,
  family,
  dip003_restrict: family === 'dip003_restrict',
});

describe('the family registry', () => {
  it('every family has a strict payload schema made of currency, package and exactly its fields', () => {
    for (const f of FAMILIES) {
      const keys = Object.keys(FAMILY[f].payload.shape).sort();
      expect(keys, f).toEqual(['currency', 'package', ...FAMILY[f].fields].sort());
      for (const field of FAMILY[f].fields) expect(takesField(f, field), `${f}.${field}`).toBe(true);
    }
  });

  it("each schema accepts its family's deploy, and that deploy passes section 5's rules", () => {
    for (const f of FAMILIES) {
      const r = FAMILY[f].payload.safeParse({ currency: 'x', ...VALID[f] });
      expect(r.success, `${f}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
      expect(payloadProblem(coin(f), VALID[f]), f).toBeNull();
      if (f !== 'evm') expect(deployProblem(coin(f), VALID[f]), f).toBeNull();
    }
  });

  it("each schema refuses every field its family does not send, with the field's name", () => {
    let refused = 0;
    for (const f of FAMILIES) {
      for (const field of ALL_FIELDS.filter((x) => !FAMILY[f].fields.includes(x))) {
        const input = { ...VALID[f], [field]: SAMPLE[field] };
        const r = FAMILY[f].payload.safeParse({ currency: 'x', ...input });
        expect(r.success, `${f} took ${field}`).toBe(false);
        expect(
          r.error!.issues.some((i) => i.code === 'unrecognized_keys' && i.keys.includes(field)),
          `${f}.${field}`,
        ).toBe(true);
        expect(payloadProblem(coin(f), input), `${f}.${field}`).toEqual({
          field,
          message: fieldNotTaken(`Coin ${f}`, field),
        });
        if (f !== 'evm')
          expect(deployProblem(coin(f), input as never), `${f}.${field}`).toEqual({
            field,
            message: fieldNotTaken(`Coin ${f}`, field),
          });
        refused++;
      }
    }
    // Every family refuses something: no family's schema is the catch-all.
    for (const f of FAMILIES) expect(FAMILY[f].fields.length, f).toBeLessThan(ALL_FIELDS.length);
    expect(refused).toBeGreaterThan(FAMILIES.length * 5);
  });

  it('a field its family cannot go without may not be left out; the others may', () => {
    for (const f of FAMILIES) {
      for (const field of FAMILY[f].fields) {
        const { [field]: _left, ...rest } = VALID[f];
        const r = FAMILY[f].payload.safeParse({ currency: 'x', ...rest });
        const required = (FAMILY[f].required ?? []).includes(field);
        expect(r.success, `${f} without ${field}`).toBe(!required);
      }
    }
    expect(FAMILY.satori.required).toEqual(['rewardAddress']);
    expect(FAMILY.sin.required).toEqual(['burntxid', 'burn_output_id']);
  });

  it('an empty or unticked foreign field carries nothing and is not refused', () => {
    expect(
      payloadProblem(coin('classic'), { txid: tx, payee: '', migrate: false, blsKey: '   ', monero_secret: undefined }),
    ).toBeNull();
    // A script's one template for every coin: burn_output_id 0 where the coin takes no burn.
    expect(payloadProblem(coin('classic'), { txid: tx, burntxid: '', burn_output_id: 0 })).toBeNull();
    expect(payloadProblem(coin('classic'), { txid: tx, burn_output_id: 1 })).toEqual({
      field: 'burn_output_id',
      message: fieldNotTaken('Coin classic', 'burn_output_id'),
    });
    expect(payloadProblem(coin('classic'), { txid: tx, migrate: true })).toEqual({
      field: 'migrate',
      message: fieldNotTaken('Coin classic', 'migrate'),
    });
  });

  it('the exact messages of section 5 still come first for the fields a family takes', () => {
    expect(deployProblem(coin('zen'), { txid: '' })).toEqual({ field: 'txid', message: 'Address required.' });
    expect(deployProblem(coin('playa3ull'), { txid: '' })).toEqual({ field: 'txid', message: 'License key required.' });
    expect(deployProblem(coin('dip003'), { txid: '', migrate: true, blsKey: 'nope' })).toEqual({
      field: 'blsKey',
      message: 'Incorrect BLS key',
    });
    expect(deployProblem(coin('satori'), { neuronCount: 2 })).toEqual({
      field: 'rewardAddress',
      message: 'Address required.',
    });
  });

  it('the transport schemas are the union of the same fields', () => {
    const json = FAMILIES.filter((f) => FAMILY[f].entry !== 'keystores').flatMap((f) => FAMILY[f].fields);
    expect(Object.keys(deployServerInput.shape).sort()).toEqual([...new Set(['currency', 'package', ...json])].sort());
    expect(Object.keys(deployValidatorsInput.shape).sort()).toEqual(Object.keys(FAMILY.evm.payload.shape).sort());
    expect([...FAMILY.evm.fields]).toEqual(UPLOAD_FIELDS);
  });

  it("decisions once made by family id are the registry's properties", () => {
    expect(FAMILIES.filter((f) => FAMILY[f].uniqueEntry)).toEqual(['zen']);
    expect(FAMILIES.filter((f) => FAMILY[f].nodeTracker)).toEqual(['zen']);
    expect(FAMILIES.filter((f) => FAMILY[f].validator)).toEqual(['evm']);
    expect(FAMILIES.filter((f) => FAMILY[f].startCall === 'register_submit')).toEqual(['dip003', 'dip003_restrict']);
    expect(FAMILIES.filter((f) => FAMILY[f].startCall === 'quick_setup')).toEqual(['smartnode']);
    expect(FAMILIES.filter((f) => FAMILY[f].output === 'defi')).toEqual(['defi']);
    // An unknown family (an old row, a newer catalog) reads as classic.
    expect(familyOf('brand-new')).toBe(FAMILY.classic);
  });

  it("coin-level words live beside the families: NIX's ghostnode, the BDX/OXEN prefixes, Gnosis's deposit", () => {
    expect(coinWords('nix').nodeWord).toBe('ghostnode');
    expect(coinWords('pivx')).toMatchObject({ nodeWord: 'masternode', addressPrefix: null });
    expect(coinWords('bdx')).toMatchObject({ addressPrefix: 'b', walletCli: 'beldex-wallet-cli' });
    expect(coinWords('oxen').addressPrefix).toBe('L');
    expect(deployProblem({ ...coin('monero'), id: 'oxen', label: 'Oxen' }, { txid: 'b123' })).toEqual({
      field: 'txid',
      message: 'Address is not valid: an Oxen address starts with "L".',
    });
    expect(coinWords('gno').deposit.chain).toBe('gnosis');
    expect(coinWords('eth').deposit).toEqual({ chain: 'mainnet', site: 'https://launchpad.ethereum.org' });
  });

  it("the fleet's fallback daemon profile speaks the family's RPC and is in catalog/daemons.json", () => {
    const profiles = loadProfiles(path.resolve('catalog/daemons.json'));
    const rpc = { dash: 'dash', classic: 'bitcoin', monero: 'monero', evm: 'evm' } as const;
    for (const f of FAMILIES) {
      const p = profiles[simulatorProfileId(f)];
      expect(p?.run, f).toBe('simulator');
      expect(p!.rpc, f).toBe(rpc[FAMILY[f].simulatedRpc]);
    }
    expect(simulatorProfileId('dip003')).toBe('simulator-dash');
    expect(simulatorProfileId('zen')).toBe('simulator-classic');
  });
});
