import { describe, expect, it } from 'vitest';
import { DELETE_REASONS, deleteMasternodeInput, updateAliasInput } from '../../shared/schemas/nodes';
import { EIP55_MISMATCH } from '../../shared/evm-address';
import {
  ADDRESS_REQUIRED,
  aliasToast,
  aliasValue,
  dip003State,
  feeAddressComplete,
  feeAddressProblem,
  feeAddressReady,
  feeRecipientProblem,
  INVALID_ADDRESS,
  moneroStartCommand,
  moneroState,
  quickSetupDone,
  withFeeAddress,
} from './configState';
import { chatOpen, deleteReasonText, reasonHint } from './deleteReasons';
import { yearlyIncome } from './OverviewCards';

// The node page's rules apart from the browser (deployment-and-nodes.md sections 4, 5, 8, 9).

describe('DIP003 start view', () => {
  it('asks for the signed message while not_active, congratulates once active or migrated, else warns', () => {
    expect(dip003State('mn1 1.2.3.4:9999 not_active')).toBe('start');
    // "not_active" is never read as "active".
    expect(dip003State('not_active')).toBe('start');
    expect(dip003State('mn1 1.2.3.4:9999 active')).toBe('started');
    expect(dip003State('mn1 migrated')).toBe('started');
    expect(dip003State('mn1 1.2.3.4:9999 key txid 0')).toBe('attention');
    expect(dip003State('')).toBe('attention');
    expect(dip003State('mn1 inactive')).toBe('attention');
  });

  it('quick setup is done when running or migrated', () => {
    expect(quickSetupDone('running', '')).toBe(true);
    expect(quickSetupDone('start required', 'x migrated')).toBe(true);
    expect(quickSetupDone('start required', 'x not_active')).toBe(false);
    expect(quickSetupDone('syncing', 'x migrated_not')).toBe(false);
  });

  it('shows the quick-setup steps only for a 34-character fee address, and fills it in', () => {
    const addr = 'R'.repeat(34);
    expect(feeAddressComplete(addr)).toBe(true);
    expect(feeAddressComplete(` ${addr} `)).toBe(true);
    expect(feeAddressComplete(addr.slice(1))).toBe(false);
    expect(feeAddressComplete(addr + 'x')).toBe(false);
    expect(feeAddressComplete('')).toBe(false);
    expect(withFeeAddress('protx quick_setup tx 0 1.2.3.4:10226 {fee_address}', addr)).toBe(
      `protx quick_setup tx 0 1.2.3.4:10226 ${addr}`,
    );
  });

  it('takes only a Raptoreum address as the fee address, saying what is wrong with any other', () => {
    const rtm = { id: 'rtm', label: 'Raptoreum' };
    // Raptor3um/raptoreum 2.0.3.01-mainnet src/chainparams.cpp:316, a real mainnet address.
    const real = 'RWGvGpd3yJdnfh9ziyHNDEoHMJBvnZ23zK';
    expect(feeAddressReady(rtm, real)).toBe(true);
    expect(feeAddressProblem(rtm, real)).toBeNull();
    expect(feeAddressProblem(rtm, real.slice(0, 20))).toBeNull(); // still typing: nothing said yet
    expect(feeAddressReady(rtm, 'R'.repeat(34))).toBe(false);
    expect(feeAddressProblem(rtm, 'R'.repeat(34))).toBe(
      'This Raptoreum address does not check out (its checksum does not match): check for a typo.',
    );
    expect(feeAddressProblem(rtm, 'x'.repeat(34))).toBe(
      'This is not a Raptoreum address: it should start with R or 7.',
    );
    expect(feeAddressReady(rtm, `${real}x`)).toBe(false);
  });
});

describe('monero-type view', () => {
  it('derives the start command: the output text minus its last word', () => {
    expect(moneroStartCommand('register_service_node 0 bxAddr 100 abcdef 1700000000')).toBe(
      'register_service_node 0 bxAddr 100 abcdef',
    );
    expect(moneroStartCommand('  register_oxen_node a b  ')).toBe('register_oxen_node a');
    expect(moneroStartCommand('register_service_node')).toBeNull();
    expect(moneroStartCommand('prepare_registration x y')).toBeNull();
    expect(moneroStartCommand('register__node x y')).toBeNull();
    expect(moneroStartCommand('')).toBeNull();
  });

  it('is running, start or syncing in that order', () => {
    expect(moneroState('running', 'register_service_node a b')).toEqual({ kind: 'running' });
    expect(moneroState('start required', 'register_service_node a b')).toEqual({
      kind: 'start',
      command: 'register_service_node a',
    });
    expect(moneroState('syncing', '')).toEqual({ kind: 'syncing' });
  });
});

describe('fee recipient', () => {
  const good = '0x' + 'ab'.repeat(20);
  // EIP-55 example address (mixed case, valid checksum) and the same with one letter's case flipped.
  const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  it('is required only once a submit was tried', () => {
    expect(feeRecipientProblem('', false)).toBeNull();
    expect(feeRecipientProblem('  ', true)).toBe(ADDRESS_REQUIRED);
    expect(ADDRESS_REQUIRED).toBe('Address required');
  });
  it('is 0x and exactly 40 hex characters', () => {
    expect(feeRecipientProblem(good, false)).toBeNull();
    expect(feeRecipientProblem(good, true)).toBeNull();
    expect(feeRecipientProblem(good.toUpperCase().replace('0X', '0x'), true)).toBeNull();
    expect(feeRecipientProblem(checksummed, true)).toBeNull();
    expect(feeRecipientProblem(checksummed.replace('aA', 'Aa'), true)).toBe(EIP55_MISMATCH);
    for (const bad of [
      '0x',
      good.slice(0, -1),
      good + 'a',
      '0X' + 'a'.repeat(40),
      'a'.repeat(42),
      '0x' + 'g'.repeat(40),
    ]) {
      expect(feeRecipientProblem(bad, false), bad).toBe(INVALID_ADDRESS);
    }
    expect(INVALID_ADDRESS).toBe('Invalid address');
  });
});

describe('alias', () => {
  it('takes letters, digits, hyphen, underscore and space, up to 48 (the server schema the editor checks with)', () => {
    const said = (alias: string | null) => {
      const r = updateAliasInput.safeParse({ mn: 'x', alias });
      return r.success ? null : r.error.issues[0].message;
    };
    for (const ok of ['My node_1-a', '', 'a'.repeat(48), null]) expect(said(ok), String(ok)).toBeNull();
    expect(said('a'.repeat(49))).toBe('must be at most 48 characters');
    for (const bad of ['node!', 'nöde', 'a/b', 'tab\there', '<b>'])
      expect(said(bad), bad).toBe('may hold only letters, digits, hyphens, underscores and spaces');
  });
});

describe('delete dialog', () => {
  it('lists the fifteen reasons of the spec, Other last', () => {
    expect(DELETE_REASONS).toHaveLength(15);
    expect(DELETE_REASONS[14]).toBe('Other');
  });
  it('needs a reason, and for Other the words, at most 1000 characters', () => {
    expect(deleteReasonText('', '')).toBeNull();
    expect(deleteReasonText('Moving to Cloud plan', 'ignored')).toBe('Moving to Cloud plan');
    expect(deleteReasonText('Not a listed reason', '')).toBeNull();
    expect(deleteReasonText('Other', '   ')).toBeNull();
    expect(deleteReasonText('Other', ' Too far from home ')).toBe('Too far from home');
    expect(deleteReasonText('Other', 'x'.repeat(1000))).toBe('x'.repeat(1000));
    expect(deleteReasonText('Other', 'x'.repeat(1001))).toBeNull();
    // What the dialog sends, the server takes.
    for (const r of DELETE_REASONS)
      expect(deleteMasternodeInput.safeParse({ mn: 'x', reason: deleteReasonText(r, 'words') }).success, r).toBe(true);
  });
  it('hints reward times or live chat', () => {
    expect(reasonHint("I'm not receiving rewards")).toBe('rewards');
    for (const r of [
      'There is a problem with the node',
      "I didn't like your services",
      "I'm not satisfied with the support",
    ])
      expect(reasonHint(r)).toBe('chat');
    expect(reasonHint('Moving to Cloud plan')).toBeNull();
    expect(chatOpen(new Date('2026-01-01T06:59:00Z'))).toBe(false);
    expect(chatOpen(new Date('2026-01-01T07:00:00Z'))).toBe(true);
    expect(chatOpen(new Date('2026-01-01T20:59:00Z'))).toBe(true);
    expect(chatOpen(new Date('2026-01-01T21:00:00Z'))).toBe(false);
  });
});

describe('revenue bar', () => {
  it('shows 12 × the revenue figure, or nothing without one', () => {
    expect(yearlyIncome(2.5)).toBe(30);
    expect(yearlyIncome('--')).toBeNull();
  });
});
