import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { readFileSync } from 'node:fs';
import { chainSynced, CHAIN_REPLIES } from '../../src/server/fleet/daemons/bitcoin';

const pivx = JSON.parse(readFileSync('catalog/daemon-facts/pivxd.json', 'utf8')) as {
  rpc_methods: Record<string, { reply?: unknown }>;
};

describe('chainSynced', () => {
  it("reads PIVX's initial_block_downloading from its getblockchaininfo reply", () => {
    const reply = v.parse(CHAIN_REPLIES.getblockchaininfo, pivx.rpc_methods.getblockchaininfo.reply);
    expect(chainSynced(reply)).toBe(true);
    expect(chainSynced({ ...reply, initial_block_downloading: true, blocks: 10, headers: 10 })).toBe(false);
  });
  it('is synced only when the flag is off and the blocks have caught up with the headers', () => {
    const base = { blocks: 5, headers: 9, verificationprogress: 0.5 };
    // bitcoind clears the flag for good once its tip is recent, blocks behind or not.
    expect(chainSynced({ ...base, initialblockdownload: false })).toBe(false);
    expect(chainSynced({ ...base, blocks: 9, initialblockdownload: false })).toBe(true);
    // The block whose header just came is still in flight: one behind is synced.
    expect(chainSynced({ ...base, blocks: 8, initialblockdownload: false })).toBe(true);
    expect(chainSynced({ ...base, blocks: 9, initialblockdownload: true })).toBe(false);
    // A daemon without the flag: the blocks against the headers alone.
    expect(chainSynced(base)).toBe(false);
    expect(chainSynced({ ...base, blocks: 9 })).toBe(true);
  });
});
