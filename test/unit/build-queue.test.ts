import { describe, expect, it } from 'vitest';
import type { CoinRecord, Masternode } from '../../src/server/db/schema';
import { FINISHED_IN_QUEUE, buildQueue } from '../../src/server/nodes/service';

// The Deployments panel keeps finished nodes per deploy (src/server/nodes/README.md).
const coin = { id: 'satori', label: 'Satori Network', ticker: 'SATORI' } as CoinRecord;
const coinOf = new Map([[coin.id, coin]]);
const now = 1_800_000_000_000;

function done(mnId: string, deployId: string | null, finishedAgoMs: number): Masternode {
  const at = now - finishedAgoMs;
  return {
    mn_id: mnId,
    coin_id: coin.id,
    deploy_id: deployId,
    state: 'live',
    alias: null,
    state_at: at,
    created_at: at - 1000,
    provisioned_at: at,
    first_answer_at: at,
    failed_reason: null,
  } as unknown as Masternode;
}

describe('buildQueue', () => {
  it('shows every node of a deploy larger than the cap, and only the latest deploys', () => {
    const neurons = Array.from({ length: 21 }, (_, i) => done(`n-${i}`, 'big', 1000 + i));
    const singles = Array.from({ length: FINISHED_IN_QUEUE + 1 }, (_, i) => done(`s-${i}`, null, 60_000 * (i + 1)));
    const ids = buildQueue([...singles, ...neurons], coinOf, now).map((q) => q.mn_id);
    expect(ids).toEqual([
      ...neurons.map((n) => n.mn_id),
      ...singles.slice(0, FINISHED_IN_QUEUE - 1).map((n) => n.mn_id),
    ]);
  });

  it('a node still being set up always shows, before the finished ones', () => {
    const pending = { ...done('p', 'x', 0), state: 'provisioning', first_answer_at: null } as Masternode;
    const items = buildQueue([done('a', null, 5000), pending], coinOf, now);
    expect(items.map((q) => [q.mn_id, q.status])).toEqual([
      ['p', 'pending'],
      ['a', 'done'],
    ]);
  });
});
