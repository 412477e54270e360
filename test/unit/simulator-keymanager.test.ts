import { describe, expect, it } from 'vitest';
import type { SimNode } from '../../src/server/fleet/simulator/chain';
import { isKeymanagerPath, keymanagerAnswer } from '../../src/server/fleet/simulator/keymanager';

// The simulated validator client's Keymanager API answers as the standard (and
// Lighthouse) does, so the platform's calls are tried against the same replies.

const pubkey = '0x' + 'ab'.repeat(48);
const token = 't'.repeat(64);
const node = () =>
  ({
    nodeId: 'eth-1',
    coin: 'eth',
    rpc: 'evm',
    validators: [{ pubkey, feeRecipient: '0x' + '1'.repeat(40) }],
    keymanagerToken: token,
  }) as unknown as SimNode;
const bearer = `Bearer ${token}`;
const fee = `/eth/v1/validator/${pubkey}/feerecipient`;

describe('simulated Keymanager API', () => {
  it('knows its paths and nothing of the beacon API', () => {
    expect(isKeymanagerPath('/eth/v1/keystores')).toBe(true);
    expect(isKeymanagerPath(fee)).toBe(true);
    expect(isKeymanagerPath('/eth/v1/node/syncing')).toBe(false);
    expect(isKeymanagerPath('/eth/v1/validator/0x12/feerecipient')).toBe(false);
  });

  it('wants the Bearer token: 401 without, 403 when wrong; no client at all is 404', () => {
    expect(keymanagerAnswer(node(), 'GET', '/eth/v1/keystores', undefined, undefined).status).toBe(401);
    expect(keymanagerAnswer(node(), 'GET', '/eth/v1/keystores', undefined, `Bearer ${'x'.repeat(64)}`).status).toBe(
      403,
    );
    expect(keymanagerAnswer(node(), 'GET', '/eth/v1/keystores', undefined, `Basic ${token}`).status).toBe(403);
    expect(
      keymanagerAnswer({ ...node(), keymanagerToken: undefined }, 'GET', '/eth/v1/keystores', undefined, bearer).status,
    ).toBe(404);
  });

  it('lists its keystores, reads and sets a fee recipient (202), refuses a bad address and an unknown key', () => {
    const n = node();
    expect(keymanagerAnswer(n, 'GET', '/eth/v1/keystores', undefined, bearer)).toEqual({
      status: 200,
      body: { data: [{ validating_pubkey: pubkey, derivation_path: '', readonly: false }] },
    });
    const next = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(keymanagerAnswer(n, 'POST', fee, { ethaddress: next }, bearer)).toEqual({
      status: 202,
      body: null,
      changed: true,
    });
    // Upper-case key in the path: the same validator.
    expect(
      keymanagerAnswer(n, 'GET', `/eth/v1/validator/0x${'AB'.repeat(48)}/feerecipient`, undefined, bearer).body,
    ).toEqual({ data: { pubkey, ethaddress: next } });
    for (const bad of [{}, { ethaddress: '0x12' }, { ethaddress: 7 }, undefined])
      expect(keymanagerAnswer(n, 'POST', fee, bad, bearer).status).toBe(400);
    expect(keymanagerAnswer(n, 'GET', fee, undefined, bearer).body).toEqual({ data: { pubkey, ethaddress: next } });
    expect(
      keymanagerAnswer(n, 'GET', `/eth/v1/validator/0x${'cd'.repeat(48)}/feerecipient`, undefined, bearer),
    ).toMatchObject({ status: 404 });
    expect(keymanagerAnswer(n, 'DELETE', '/eth/v1/keystores', undefined, bearer).status).toBe(405);
  });
});
