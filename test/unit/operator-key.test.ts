import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoinRecord, Host, Masternode } from '../../src/server/db/schema';
import type { BinaryProfile } from '../../src/server/fleet/profiles';
import { LocalEngine } from '../../src/server/fleet/engines/local';
import { buildSpec, withOperatorKey } from '../../src/server/nodes/daemon-spec';
import { memoryLogger } from '../../src/server/kernel/log';
import { sealSecrets } from '../../src/server/nodes/node-secrets';
import { operatorKeyFor } from '../../src/server/nodes/operator-key';
import { secretBoxWithKey } from '../../src/server/secrets/box';
import { parseSecretsKey } from '../../src/server/secrets/key';

// A real daemon gets the key it signs with in its config file (issue 8: real nodes).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-opkey-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const box = secretBoxWithKey(parseSecretsKey(randomBytes(32).toString('hex'))!, 'env');
const secret = randomBytes(32).toString('hex');

describe("the operator key in a real daemon's config", () => {
  it('goes before the first network section, and only as one word', () => {
    expect(withOperatorKey('a=1\n[main]\nport=1\n', 'masternodeblsprivkey', 'abc')).toBe(
      'a=1\nmasternodeblsprivkey=abc\n[main]\nport=1\n',
    );
    expect(withOperatorKey('a=1\n', 'masternodeprivkey', 'K1')).toBe('a=1\nmasternodeprivkey=K1\n');
    expect(withOperatorKey('a=1\n', undefined, 'K1')).toBe('a=1\n');
    expect(withOperatorKey('a=1\n', 'masternodeprivkey', null)).toBe('a=1\n');
    expect(() => withOperatorKey('a=1\n', 'masternodeprivkey', 'K1\nrpcallowip=0.0.0.0/0')).toThrow(
      /not a single word/,
    );
  });

  it('is the sealed operator BLS secret for DIP003, the masternode.conf key for classic coins, the operator address for DFI', () => {
    const sealed = sealSecrets(box, 'dash-1', { operator_bls_secret: secret });
    expect(
      operatorKeyFor(
        box,
        { mn_id: 'dash-1', secrets: sealed, output_text: 'mn1 1.2.3.4:9999 - tx 0 - pub not_active' },
        'dip003',
      ),
    ).toBe(secret);
    // Sealed for another node: does not open.
    expect(() => operatorKeyFor(box, { mn_id: 'dash-2', secrets: sealed, output_text: null }, 'dip003')).toThrow();
    // The classic key is sealed; a word in the output text's slot is not taken for it.
    const pivxSealed = sealSecrets(box, 'pivx-1', { masternode_key: 'KwifKey' });
    expect(
      operatorKeyFor(
        box,
        { mn_id: 'pivx-1', secrets: pivxSealed, output_text: `mn1 1.2.3.4:51472 - ${'a'.repeat(64)} 1` },
        'classic',
      ),
    ).toBe('KwifKey');
    expect(
      operatorKeyFor(
        box,
        { mn_id: 'pivx-2', secrets: null, output_text: `mn1 1.2.3.4:51472 Kplain ${'a'.repeat(64)} 1` },
        'classic',
      ),
    ).toBeNull();
    expect(() => operatorKeyFor(box, { mn_id: 'pivx-2', secrets: pivxSealed, output_text: null }, 'sin')).toThrow();
    expect(
      operatorKeyFor(box, { mn_id: 'defi-1', secrets: null, output_text: `dOperatorAddr ${'b'.repeat(64)}` }, 'defi'),
    ).toBe('dOperatorAddr');
    expect(operatorKeyFor(box, { mn_id: 'zen-1', secrets: null, output_text: 'mn1 t1addr' }, 'zen')).toBeNull();
  });

  it('is in the daemon config file, readable by its owner only, and never an argument', async () => {
    const profile = {
      run: 'binary',
      program: '/usr/bin/dashd',
      rpc: 'bitcoin',
      flavour: 'dash',
      ports: ['rpc'],
      args: ['-conf={data}/dash.conf'],
      config_file: 'dash.conf',
      config: 'server=1\nrpcbind={rpc_bind}\n[main]\nrpcport={port:rpc}\n',
      operator_key_option: 'masternodeblsprivkey',
    } as BinaryProfile;
    const node = {
      mn_id: 'dash-cfg',
      user_id: 1,
      package: 'dedicated',
      rpc_user: 'u',
      rpc_password: 'p',
      server_ip: '203.0.113.9',
      server_ip6: null,
      output_text: null,
    } as unknown as Masternode;
    const host = { engine: 'local' } as Host;
    const coin = { id: 'dash', label: 'Dash', details: '{}' } as unknown as CoinRecord;
    for (const engine of ['local', 'docker'] as const) {
      const { spec } = await buildSpec(node, coin, { ...profile, image: 'dashpay/dashd:1' }, { engine } as Host, dir, {
        operatorKey: secret,
      });
      expect(spec.files).toEqual([
        {
          name: 'dash.conf',
          mode: 0o600,
          content: expect.stringMatching(
            new RegExp(`^server=1\\nrpcbind=[\\d.]+\\nmasternodeblsprivkey=${secret}\\n\\[main\\]\\nrpcport=\\d+\\n$`),
          ),
        },
      ]);
      expect(spec.args).toEqual([`-conf=${spec.dataDir}/dash.conf`]);
      expect(JSON.stringify({ ...spec, files: undefined })).not.toContain(secret);
    }
    // The local engine writes it, 0600, and keeps no copy in its own record.
    const local = new LocalEngine({ dir: path.join(dir, 'local'), log: memoryLogger(), simulatorCommand: ['true'] });
    const { spec } = await buildSpec(node, coin, profile, host, dir, { operatorKey: secret });
    await local.create(spec);
    const file = path.join(dir, 'data', 'dash-cfg', 'dash.conf');
    expect(fs.readFileSync(file, 'utf8')).toBe(spec.files![0].content);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, 'local', 'dash-cfg', 'node.json'), 'utf8')).not.toContain(secret);
    // A rewrite (quick setup) replaces it, still 0600 even when the old file was not.
    fs.chmodSync(file, 0o644);
    await local.writeFiles('dash-cfg', [{ name: 'dash.conf', content: 'server=1\n', mode: 0o600 }]);
    expect(fs.readFileSync(file, 'utf8')).toBe('server=1\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await local.close();
  });
});
