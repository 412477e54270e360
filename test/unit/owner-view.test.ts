import { describe, expect, it } from 'vitest';
import type { Masternode } from '../../src/server/db/schema';
import type { Observation } from '../../src/server/fleet/daemons/observation';
import { OwnerViews } from '../../src/server/nodes/owner-view';
import type { DaemonProfile } from '../../src/server/fleet/profiles';
import { memoryLogger } from '../../src/server/kernel/log';

// The owner's view of a node whose daemon profile reads no wallet activity.
describe("the owner's view without wallet activity", () => {
  it("still carries a Dash-type node's PoSe penalty, and nothing for others", async () => {
    const views = new OwnerViews(memoryLogger(), 1_000);
    const node = { mn_id: 'dash-pose', rpc_user: 'u', rpc_password: 'p' } as unknown as Masternode;
    const endpoint = { host: '127.0.0.1', port: 1 };
    const obs = { posePenalty: 42, collateralAddress: 'XaddrNotRead' } as unknown as Observation;
    const dashd = { run: 'binary', rpc: 'bitcoin', flavour: 'dash', activity: 'none' } as unknown as DaemonProfile;
    expect(await views.read(node, dashd, endpoint, obs)).toEqual({ pose_penalty: 42 });
    const litecoind = { run: 'binary', rpc: 'bitcoin', flavour: 'none', activity: 'none' } as unknown as DaemonProfile;
    expect(await views.read(node, litecoind, endpoint, obs)).toEqual({});
  });
});
