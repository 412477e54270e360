import { describe, expect, it } from 'vitest';
import { bls12_381 } from '@noble/curves/bls12-381';
import type { Masternode } from '../../src/server/db/schema';
import { blsPublicKeyHex } from '../../src/server/nodes/bls';
import { registerCommand, startMarker, validatorOutput, withFeeRecipient } from '../../src/server/nodes/output-read';
import { parseQuickSetup, parseRegisterOutput } from '../../src/server/nodes/register-input';
import { buildSetup, masternodeConfLine } from '../../src/server/nodes/setup';
import { buildOutputText } from '../../src/server/nodes/output-text';
import { energiNodeKey } from '../../src/server/deploy/node-keys';

// What each family's configuration view gets, from the node row alone.

const TXID = 'ab'.repeat(32);
const node = (extra: Partial<Masternode> = {}): Masternode =>
  ({
    mn_id: 'pivx-0011223344',
    alias: null,
    entry: null,
    payee: null,
    output_text: null,
    validator_pubkey: null,
    fee_recipient: null,
    started_at: null,
    server_ip: '203.0.113.7',
    p2p_port: 51472,
    pose_penalty: null,
    last_paid_height: null,
    ...extra,
  }) as Masternode;
const coin = (id: string, family: string) => ({ id, ticker: id.toUpperCase(), family });

describe('output text', () => {
  it('reads markers as whole words', () => {
    expect(startMarker('a b not_active')).toBe('not_active');
    expect(startMarker('a migrated')).toBe('migrated');
    expect(startMarker('inactive x')).toBeNull();
    expect(registerCommand('register_service_node 0 La 100 1700000000 pub sig not_active')).toBe(
      'register_service_node 0 La 100 1700000000 pub sig',
    );
    expect(registerCommand('syncing')).toBeNull();
    expect(validatorOutput('not json')).toBeNull();
    expect(JSON.parse(withFeeRecipient('{"pubkey":"p","fee_recipient":"0x1","extra":1}', null, '0x2'))).toEqual({
      pubkey: 'p',
      fee_recipient: '0x2',
      extra: 1,
    });
  });
});

describe('start text parsing', () => {
  const sig = Buffer.alloc(65, 1).toString('base64');
  const tx = '03000100'.padEnd(200, 'a');
  it('takes the register_prepare JSON then the signature, or "<tx> <sig>"', () => {
    expect(parseRegisterOutput(`{"tx":"${tx}","collateralAddress":"X","signMessage":"m"}\n"${sig}"`)).toEqual({
      ok: true,
      value: { tx, sig },
    });
    expect(parseRegisterOutput(`${tx.toUpperCase()} ${sig}`)).toEqual({ ok: true, value: { tx, sig } });
    expect(parseRegisterOutput(tx)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/signature is missing/),
    });
    expect(parseRegisterOutput(`{"tx":"${tx}"} ${sig} more`)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/nothing else/),
    });
  });
  it('takes the quick-setup file or the key alone', () => {
    const key = 'c'.repeat(64);
    expect(parseQuickSetup(`a=1\nsmartnodeblsprivkey = ${key.toUpperCase()}\n`)).toEqual({ ok: true, value: key });
    expect(parseQuickSetup(key)).toEqual({ ok: true, value: key });
    expect(parseQuickSetup(`smartnodeblsprivkey=${key}\nmasternodeblsprivkey=${key}`)).toMatchObject({ ok: false });
  });
});

describe('setup per family', () => {
  it('classic: the masternode.conf line with the alias, and start-alias (ghostnode for NIX)', () => {
    // The stored text holds only the key's slot; the owner's view gets the opened key.
    const n = node({ alias: 'my node', output_text: `pivx-0011223344 203.0.113.7:51472 - ${TXID} 1 not_active` });
    expect(masternodeConfLine(n, 'privkey123')).toBe(`my_node 203.0.113.7:51472 privkey123 ${TXID} 1`);
    expect(masternodeConfLine(n)).toBe(`my_node 203.0.113.7:51472 <masternodeprivkey> ${TXID} 1`);
    // A word in the slot (an old text) is never shown: only the sealed key is.
    expect(masternodeConfLine({ ...n, output_text: `x 203.0.113.7:51472 oldKey ${TXID} 1` })).toBe(
      `my_node 203.0.113.7:51472 <masternodeprivkey> ${TXID} 1`,
    );
    const { setup, start_cmd } = buildSetup({
      node: n,
      coin: coin('pivx', 'classic'),
      secrets: null,
      masternodeKey: 'privkey123',
    });
    expect(start_cmd).toBe('masternode start-alias my_node');
    expect(setup.view).toBe('classic');
    expect(setup.started).toBe(false);
    expect(setup.fields).toContainEqual({ label: 'Private key', value: 'privkey123', secret: true, href: null });
    expect(setup.commands[0]).toEqual({
      label: 'masternode.conf',
      text: `my_node 203.0.113.7:51472 privkey123 ${TXID} 1`,
    });
    expect(
      buildSetup({ node: n, coin: coin('pivx', 'classic'), secrets: null }).setup.fields.map((f) => f.label),
    ).not.toContain('Private key');
    expect(buildSetup({ node: n, coin: coin('nix', 'classic'), secrets: null }).start_cmd).toBe(
      'ghostnode start-alias my_node',
    );
  });

  it("dip003: register_prepare with our operator public key and this node's address; the BLS secret blurred", () => {
    const secret = Buffer.from(bls12_381.utils.randomSecretKey()).toString('hex');
    const pub = blsPublicKeyHex(Buffer.from(secret, 'hex'));
    const n = node({
      entry: TXID,
      payee: 'XpayoutAddr',
      p2p_port: 9999,
      output_text: `x ${TXID} 0 not_active`,
      pose_penalty: 12,
      last_paid_height: 777,
    });
    const { setup } = buildSetup({
      node: n,
      coin: coin('dash', 'dip003'),
      secrets: { operatorSecret: secret, moneroSecret: null },
    });
    expect(setup.commands.map((c) => c.text)).toContain(
      `protx register_prepare ${TXID} 0 203.0.113.7:9999 <ownerAddress> ${pub} <votingAddress> 0 XpayoutAddr`,
    );
    expect(setup.fields).toContainEqual({ label: 'BLS secret', value: secret, secret: true, href: null });
    expect(setup.fields).toContainEqual({ label: 'Operator public key', value: pub, secret: false, href: null });
    expect(setup).toMatchObject({ view: 'dip003', pose_penalty: 12, last_paid_block: 777, started: false });
    expect(
      buildSetup({ node: { ...n, output_text: 'x active' }, coin: coin('dash', 'dip003'), secrets: null }).setup
        .started,
    ).toBe(true);
  });

  it('monero-type: the register command once the node made it; validators: nothing to run, the fee recipient', () => {
    const m = buildSetup({
      node: node({ output_text: 'register_master_node 0 bxAddr 100 123 pk sig' }),
      coin: coin('bdx', 'monero'),
      secrets: { operatorSecret: null, moneroSecret: 'ms' },
    });
    expect(m.start_cmd).toBe('register_master_node 0 bxAddr 100 123 pk sig');
    expect(m.setup.fields).toContainEqual({ label: 'Secret key', value: 'ms', secret: true, href: null });
    const v = buildSetup({
      node: node({ validator_pubkey: 'aa', output_text: '{"pubkey":"aa","fee_recipient":"0xfee"}' }),
      coin: coin('eth', 'evm'),
      secrets: { operatorSecret: null, moneroSecret: null },
    });
    expect(v.setup).toMatchObject({
      view: 'validator',
      commands: [],
      fee_recipient: '0xfee',
      withdrawal_address: null,
    });
    const d = buildSetup({
      node: node({ output_text: `dOperatorAddr ${TXID}` }),
      coin: coin('defi', 'defi'),
      secrets: null,
    });
    // The hosted node's defi.conf line, complete; the createmasternode command is built on the
    // page from the owner address the customer types, so no placeholder goes out.
    expect(d.setup).toMatchObject({
      view: 'defi',
      commands: [{ label: 'defi.conf of your hosted node', text: 'masternode_operator=dOperatorAddr' }],
    });
    expect(d.start_cmd).toBe('');
    expect(JSON.stringify(d)).not.toMatch(/<[a-zA-Z]+>|\{[a-z_]+\}/);
  });

  it('Energi: the owner address and the enode URL of the key made at deploy, on the fixed port 39797', () => {
    const key = energiNodeKey();
    expect(key.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(key.enodeId).toMatch(/^[0-9a-f]{128}$/);
    const output_text = buildOutputText({ kind: 'energi', entry: 'EOwner', enodeId: key.enodeId });
    const e = buildSetup({ node: node({ output_text, entry: 'EOwner' }), coin: coin('nrg', 'nrg'), secrets: null });
    expect(e.setup.commands).toEqual([
      { label: 'Owner address (holds the collateral)', text: 'EOwner' },
      { label: 'Masternode enode URL', text: `enode://${key.enodeId}@203.0.113.7:39797` },
    ]);
    expect(e.setup.missing).toBeUndefined();
    // Not placed yet: the page says what it waits for, and shows no half value.
    const unplaced = buildSetup({
      node: node({ output_text, entry: 'EOwner', server_ip: null }),
      coin: coin('nrg', 'nrg'),
      secrets: null,
    });
    expect(unplaced.setup.commands.map((c) => c.label)).toEqual([
      'Owner address (holds the collateral)',
      'Masternode enode id',
    ]);
    expect(unplaced.setup.missing).toMatch(/public IPv4 address/);
    // A simulated node has no public address: its id, and the reason there is no URL.
    const simulated = buildSetup({
      node: node({ output_text, entry: 'EOwner', simulated: 1 }),
      coin: coin('nrg', 'nrg'),
      secrets: null,
    });
    expect(simulated.setup.commands[1]).toEqual({ label: 'Masternode enode id', text: key.enodeId });
    expect(simulated.setup.missing).toMatch(/^This is a simulated node/);
    // A node from before the key was made: said plainly, not "check back".
    const old = buildSetup({ node: node({ output_text: 'mn1 EOwner' }), coin: coin('nrg', 'nrg'), secrets: null });
    expect(old.setup.missing).toMatch(/Delete it and deploy it again/);
  });
});
