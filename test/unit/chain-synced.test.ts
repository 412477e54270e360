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
  it('keeps the bitcoin flag and the blocks >= headers fallback', () => {
    const base = { blocks: 5, headers: 9, verificationprogress: 0.5 };
    expect(chainSynced({ ...base, initialblockdownload: false })).toBe(true);
    expect(chainSynced(base)).toBe(false);
    expect(chainSynced({ ...base, blocks: 9 })).toBe(true);
  });
});
