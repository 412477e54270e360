import fs from 'node:fs';
import { familyOf } from '../../src/shared/families';
import { describe, expect, it } from 'vitest';
import {
  NETWORK_STATUS_HELP,
  networkStatusColour,
  networkStatusText,
  nodeStatusColour,
  nodeStatusLabel,
  splitNetworkStatus,
} from '../../src/shared/node-status';

const catalogCoins: { id: string; family: string }[] = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8')).coins;

describe('node status catalogue', () => {
  it.each([
    ['running', 'green'],
    ['start required', 'warning'],
    ['pending', 'warning'],
    ['syncing', 'warning'],
    ['error', 'red'],
    ['removed', 'red'],
    ['deploying', 'grey'],
    ['unknown', 'grey'],
    ['whatever', 'grey'],
  ])('%s is %s', (status, colour) => expect(nodeStatusColour(status)).toBe(colour));

  it('labels with a capital first letter', () => {
    expect(nodeStatusLabel('start required')).toBe('Start required');
    expect(nodeStatusLabel('running')).toBe('Running');
  });
});

describe('network status catalogue', () => {
  it.each([
    ['PRE_ENABLED', 'green'],
    ['ENABLED', 'green'],
    ['ACTIVE', 'green'],
    ['ACTIVE_ONGOING', 'green'],
    ['WATCHDOG_EXPIRED', 'warning'],
    ['ACTIVE_EXITING', 'warning'],
    ['PENDING_INITIALIZED', 'warning'],
    ['PENDING_QUEUED', 'warning'],
    ['WITHDRAWAL_POSSIBLE', 'warning'],
    ['UNKNOWN', 'grey'],
    ['EXITED_UNSLASHED', 'grey'],
    ['EXITED_SLASHED', 'grey'],
    ['WITHDRAWAL_DONE', 'grey'],
    ['NEW_START_REQUIRED', 'red'],
    ['POSE_BANNED', 'red'],
    ['OUTPOINT_SPENT', 'red'],
    ['EXPIRED', 'red'],
    ['REMOVED', 'red'],
  ])('%s is %s', (status, colour) => expect(networkStatusColour(status)).toBe(colour));

  it('absent shows "--" with no colour', () => {
    expect(networkStatusColour(null)).toBeNull();
    expect(networkStatusText(undefined)).toBe('--');
  });

  it('takes the fourth word of multi-word text and keeps the text', () => {
    expect(splitNetworkStatus('Masternode successfully started ENABLED')).toEqual({
      status_on_network: 'ENABLED',
      status_text: 'Masternode successfully started ENABLED',
    });
    expect(splitNetworkStatus('ENABLED')).toEqual({ status_on_network: 'ENABLED', status_text: 'ENABLED' });
    expect(splitNetworkStatus('  ')).toEqual({ status_on_network: null, status_text: null });
  });

  it('has help for the documented statuses and hides the network status of five coins', () => {
    for (const s of [
      'PRE_ENABLED',
      'ENABLED',
      'ACTIVE',
      'WATCHDOG_EXPIRED',
      'NEW_START_REQUIRED',
      'UPDATE_REQUIRED',
      'EXPIRED',
      'REMOVE',
      'REMOVED',
      'DOWN',
      'POSE_BANNED',
      'OUTPOINT_SPENT',
      'UNKNOWN',
    ]) {
      expect(NETWORK_STATUS_HELP[s]).toBeTruthy();
    }
    // The family registry decides; the spec's five coins are among the hidden ones.
    const familyOfCoin = new Map(catalogCoins.map((c) => [c.id, c.family]));
    for (const id of ['zen42', 'zen500', 'nrg', 'playa3ull', 'defi'])
      expect(familyOf(familyOfCoin.get(id)!).networkStatus, id).toBe(false);
    for (const id of ['dash', 'bitg', 'pivx', 'bdx', 'eth', 'sin'])
      expect(familyOf(familyOfCoin.get(id)!).networkStatus, id).toBe(true);
  });
});
