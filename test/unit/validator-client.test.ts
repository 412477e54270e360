import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bundledCatalogPath } from '../../src/server/coins/import';
import type { CoinRecord, Host, Masternode } from '../../src/server/db/schema';
import { loadProfiles, productionProfile, type DaemonProfile } from '../../src/server/fleet/profiles';
import { buildSpec } from '../../src/server/nodes/daemon-spec';
import { VALIDATOR_FILES, validatorDefinitions, type ValidatorRun } from '../../src/server/fleet/validator-client';
import { keymanagerTokenOf, openValidatorRun, sealSecrets } from '../../src/server/nodes/node-secrets';
import { secretBoxWithKey } from '../../src/server/secrets/box';
import { parseSecretsKey } from '../../src/server/secrets/key';

// An EVM validator is run by its validator client (Lighthouse `vc`) beside the beacon
// node: what the engine is told to write and to run for it.

const profiles = loadProfiles(bundledCatalogPath('daemons.json'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-vc-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const pubkey = '0x' + 'a1'.repeat(48);
const keystore = JSON.stringify({
  version: 4,
  pubkey: pubkey.slice(2),
  crypto: { cipher: { message: 'c1pher' + 'f'.repeat(58) } },
});
// Quotes, a colon, a hash and a newline: would break YAML or a shell if either held it.
const password = `pa"ss: #wo'rd\n$(rm -rf /)`;
const token = randomBytes(32).toString('hex');
const feeRecipient = '0x52908400098527886E0F7030069857D2E4169EE7';
const run: ValidatorRun = { pubkey, keystore, password, feeRecipient, token };
// Only the columns buildSpec reads.
const node = {
  mn_id: 'eth-vc1',
  user_id: 3,
  package: 'dedicated',
  rpc_user: null,
  rpc_password: null,
  server_ip: '203.0.113.5',
  server_ip6: null,
  output_text: null,
} as unknown as Masternode;
const coin = { id: 'eth', label: 'Ethereum', details: '{}' } as unknown as CoinRecord;

describe('the Lighthouse profiles', () => {
  it('run a validator client for eth and gno, with its Keymanager port among the profile ports', () => {
    for (const [c, network] of [
      ['eth', 'mainnet'],
      ['gno', 'gnosis'],
    ]) {
      const { profile } = productionProfile(profiles, c)!;
      expect(profile.validator_client, c).toBeDefined();
      expect(profile.ports).toContain(profile.validator_client!.keymanager_port);
      const a = profile.validator_client!.args;
      expect(a.slice(0, 4)).toEqual(['lighthouse', 'vc', '--network', network]);
      expect(a).toEqual(
        expect.arrayContaining([
          '--disable-auto-discover',
          '--http',
          '--unencrypted-http-transport',
          '--suggested-fee-recipient',
          '{fee_recipient}',
          '--http-token-path',
          '{data}/api-token.txt',
        ]),
      );
      expect(profile.about).not.toMatch(/neither is run/);
    }
  });

  it('refuse a keymanager_port that is not a profile port', () => {
    const file = path.join(dir, 'daemons.json');
    const shipped = JSON.parse(fs.readFileSync(bundledCatalogPath('daemons.json'), 'utf8'));
    shipped.profiles['lighthouse-mainnet'].validator_client.keymanager_port = 'vc';
    fs.writeFileSync(file, JSON.stringify(shipped));
    expect(() => loadProfiles(file)).toThrow(/keymanager_port must be one of the profile's ports/);
  });
});

describe("a validator node's spec on a Docker host", () => {
  const host = { id: 1, engine: 'docker' } as Host;
  const lighthouse = productionProfile(profiles, 'eth')!.profile;

  it('places the keystore, its password, the token and validator_definitions.yml as 0600 files', async () => {
    const { spec } = await buildSpec(node, coin, lighthouse, host, dir, { validator: run });
    const files = Object.fromEntries((spec.files ?? []).map((f) => [f.name, f]));
    expect(Object.keys(files).sort()).toEqual([
      'api-token.txt',
      'validator_definitions.yml',
      'voting-keystore.json',
      'voting-keystore.password',
    ]);
    for (const f of spec.files!) expect(f.mode, f.name).toBe(0o600);
    expect(files[VALIDATOR_FILES.keystore].content).toBe(keystore);
    expect(files[VALIDATOR_FILES.password].content).toBe(password);
    expect(files[VALIDATOR_FILES.token].content).toBe(token);
    // Lighthouse's format (book: Validator Management), paths as the container sees them.
    expect(parseYaml(files[VALIDATOR_FILES.definitions].content)).toEqual([
      {
        enabled: true,
        voting_public_key: pubkey,
        type: 'local_keystore',
        voting_keystore_path: '/data/voting-keystore.json',
        voting_keystore_password_path: '/data/voting-keystore.password',
        suggested_fee_recipient: feeRecipient,
      },
    ]);
  });

  it('runs the beacon node and the validator client in one script, with no secret on the command line', async () => {
    const { spec } = await buildSpec(node, coin, lighthouse, host, dir, { validator: run });
    expect(spec.program).toBe(lighthouse.image);
    expect(spec.args.slice(0, 2)).toEqual(['bash', '-c']);
    const script = spec.args[2];
    expect(script).toContain(`'lighthouse' 'bn' '--network' 'mainnet'`);
    const kmPort = spec.ports.keymanager;
    expect(kmPort).toBeGreaterThan(0);
    expect(script).toContain(
      `'lighthouse' 'vc' '--network' 'mainnet' '--datadir' '/data' '--validators-dir' '/data' '--beacon-nodes' 'http://127.0.0.1:${spec.ports.rpc}' '--suggested-fee-recipient' '${feeRecipient}'`,
    );
    expect(script).toContain(
      `'--http' '--http-address' '0.0.0.0' '--unencrypted-http-transport' '--http-port' '${kmPort}' '--http-token-path' '/data/api-token.txt'`,
    );
    const everything = JSON.stringify([spec.program, spec.args, spec.env ?? {}]);
    for (const secret of [password, token, 'c1pher', 'pa"ss', '$(rm']) expect(everything).not.toContain(secret);
  });

  it('refuses to build a validator that has no keystore, rather than run a beacon node that signs nothing', async () => {
    await expect(buildSpec(node, coin, lighthouse, host, dir)).rejects.toThrow(/needs its keystore/);
    await expect(
      buildSpec(node, coin, lighthouse, host, dir, { validator: { ...run, feeRecipient: '0x12' } }),
    ).rejects.toThrow(/fee recipient is not an address/);
    await expect(
      buildSpec(node, coin, lighthouse, host, dir, { validator: { ...run, pubkey: '0x1234' } }),
    ).rejects.toThrow(/48 bytes/);
    await expect(buildSpec(node, coin, lighthouse, host, dir, { validator: { ...run, token: 'a b' } })).rejects.toThrow(
      /not a single word/,
    );
  });

  it('a profile without a validator client is unchanged (only its config file, its own program)', async () => {
    const { spec } = await buildSpec(
      node,
      { id: 'dash', label: 'Dash' } as CoinRecord,
      productionProfile(profiles, 'dash')!.profile,
      host,
      dir,
      { validator: run },
    );
    expect(spec.files?.map((f) => f.name)).toEqual(['dash.conf']);
    expect(spec.args[0]).not.toBe('bash');
  });
});

describe('a simulated validator', () => {
  it('hands the simulator its pubkey, fee recipient and Keymanager token instead of files', async () => {
    const sim = profiles['simulator-evm'] as DaemonProfile;
    const details = JSON.stringify({ reward: { block_time_s: 12, block_reward: 0, node_share: 1 } });
    const { spec } = await buildSpec(
      node,
      { ...coin, collateral: '32', details } as CoinRecord,
      sim,
      { id: 1, engine: 'local' } as Host,
      dir,
      { validator: { ...run, pubkey: pubkey.slice(2).toUpperCase() } },
    );
    expect(spec.simulated).toMatchObject({
      rpc: 'evm',
      validators: [{ pubkey, feeRecipient }],
      keymanagerToken: token,
    });
    expect(spec.files).toBeUndefined();
  });
});

describe("the validator's sealed secrets", () => {
  const box = secretBoxWithKey(parseSecretsKey(randomBytes(32).toString('hex'))!, 'env');
  it('open into what its client runs with, for its own node only', () => {
    const sealed = sealSecrets(box, 'eth-vc1', { keystore, keystore_password: password, keymanager_token: token });
    const row = { mn_id: 'eth-vc1', secrets: sealed, validator_pubkey: pubkey, fee_recipient: feeRecipient };
    expect(openValidatorRun(box, row)).toEqual(run);
    expect(keymanagerTokenOf(box, row)).toBe(token);
    expect(() => openValidatorRun(box, { ...row, mn_id: 'eth-vc2' })).toThrow();
    // Deployed before the validator client: no token, nothing to run it with.
    const old = sealSecrets(box, 'eth-vc1', { keystore, keystore_password: password });
    expect(openValidatorRun(box, { ...row, secrets: old })).toBeNull();
    expect(openValidatorRun(box, { ...row, secrets: null })).toBeNull();
  });

  it('keeps the YAML free of the password (only its file path)', () => {
    expect(validatorDefinitions('/d', run)).not.toContain('pa"ss');
  });
});
