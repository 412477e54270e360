import { describe, expect, it } from 'vitest';
import {
  ADDRESS_TOKEN,
  buildOutputText,
  parseOutputText,
  splitOutpoint,
  withAddress,
  withMarker,
  withMasternodeKey,
  type OutputFields,
} from '../../src/server/nodes/output-text';

const txid = 'ab'.repeat(32);
const pub = 'cd'.repeat(48);

describe('output_text per family', () => {
  const cases: Array<[string, OutputFields, string]> = [
    [
      'classic',
      { kind: 'masternode_conf', address: ADDRESS_TOKEN, txid, index: 1, burn: null },
      `mn1 {address} - ${txid} 1`,
    ],
    [
      'sin',
      { kind: 'masternode_conf', address: ADDRESS_TOKEN, txid, index: 0, burn: `${txid}-2` },
      `mn1 {address} - ${txid} 0 ${txid}-2`,
    ],
    [
      'dip003',
      {
        kind: 'dip003',
        address: ADDRESS_TOKEN,
        txid,
        index: 0,
        payee: null,
        operatorPubkey: pub,
        marker: 'not_active',
      },
      `mn1 {address} - ${txid} 0 - ${pub} not_active`,
    ],
    [
      'smartnode',
      {
        kind: 'dip003',
        address: ADDRESS_TOKEN,
        txid: null,
        index: 0,
        payee: 'Rpayee',
        operatorPubkey: pub,
        marker: 'migrated',
      },
      `mn1 {address} - - 0 Rpayee ${pub} migrated`,
    ],
    ['zen', { kind: 'entry', entry: 'znAddress' }, 'mn1 znAddress'],
    ['monero', { kind: 'entry', entry: 'bAddress' }, 'mn1 bAddress'],
    [
      'evm',
      { kind: 'validator', pubkey: `0x${pub}`, fee_recipient: '0xabc' },
      `{"pubkey":"0x${pub}","fee_recipient":"0xabc"}`,
    ],
    ['defi', { kind: 'defi', operatorAddress: '8Operator', txid }, `8Operator ${txid}`],
  ];
  it.each(cases)('%s: built as the table says and parsed back', (family, fields, text) => {
    expect(buildOutputText(fields)).toBe(text);
    expect(parseOutputText(family, text)).toEqual(fields);
  });

  it('the spec positions: 2 key (a slot: the key is sealed), 3 TXID, 5 SIN burn, 6 operator key; DFI address then TXID', () => {
    const w = buildOutputText(cases[1][1]).split(' ');
    expect([w[2], w[3], w[5]]).toEqual(['-', txid, `${txid}-2`]);
    // The owner's copy has the key in its slot; no other layout or word changes.
    expect(withMasternodeKey('sin', buildOutputText(cases[1][1]), 'KwifKey')).toBe(
      `mn1 {address} KwifKey ${txid} 0 ${txid}-2`,
    );
    expect(withMasternodeKey('classic', buildOutputText(cases[0][1]), null)).toBe(`mn1 {address} - ${txid} 1`);
    expect(withMasternodeKey('dip003', buildOutputText(cases[2][1]), 'KwifKey')).toBe(buildOutputText(cases[2][1]));
    expect(withMasternodeKey('classic', 'mn1 1.2.3.4:1 Kother txid 0', 'KwifKey')).toBe('mn1 1.2.3.4:1 Kother txid 0');
    expect(buildOutputText(cases[2][1]).split(' ')[6]).toBe(pub);
  });

  it('a monero node whose text became its register command', () => {
    const text = 'register_service_node 0 Laddr 100 deadbeef 1700000000 sig';
    expect(parseOutputText('monero', text)).toEqual({ kind: 'monero_register', command: text });
  });

  it('texts not in the layout parse as null', () => {
    expect(parseOutputText('evm', 'not json')).toBeNull();
    expect(parseOutputText('dip003', 'mn1 a b c d e f unknown_marker')).toBeNull();
    expect(parseOutputText('classic', 'mn1')).toBeNull();
    expect(parseOutputText('classic', null)).toBeNull();
  });

  it('address filled at read time; start marker changed; outpoints split', () => {
    expect(withAddress('mn1 {address} k t 0', '203.0.113.7', 9999)).toBe('mn1 203.0.113.7:9999 k t 0');
    expect(withAddress('mn1 {address} k t 0', '2001:db8::1', 9999)).toBe('mn1 [2001:db8::1]:9999 k t 0');
    expect(withAddress('mn1 {address} k t 0', null, 9999)).toBe('mn1 {address} k t 0');
    expect(withMarker(`mn1 {address} - ${txid} 0 - ${pub} not_active`, 'active')).toBe(
      `mn1 {address} - ${txid} 0 - ${pub} active`,
    );
    expect(splitOutpoint(`${txid}-3`)).toEqual({ txid, index: 3 });
    expect(splitOutpoint(`${txid}:1`)).toEqual({ txid, index: 1 });
    expect(splitOutpoint(`${txid} 2`)).toEqual({ txid, index: 2 });
    expect(splitOutpoint(txid)).toEqual({ txid, index: 0 });
  });
});
