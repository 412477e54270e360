import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { offerOf } from '../../src/server/coins/offer';
import type { CoinRecord } from '../../src/server/db/schema';
import { loadDaemonFacts } from '../../src/server/fleet/daemon-facts';
import { loadProfiles } from '../../src/server/fleet/profiles';

// What a customer is told of a coin that is not offered in production: the truth of why.
const root = path.resolve(import.meta.dirname, '../..');
const fleet = {
  profiles: loadProfiles(path.join(root, 'catalog/daemons.json')),
  facts: loadDaemonFacts(path.join(root, 'catalog/daemon-facts')),
  simulator: false,
};
const coin = (label: string, daemon: string) =>
  ({ id: 'x', label, family: 'dash', details: JSON.stringify({ daemon }) }) as unknown as CoinRecord;

describe('the offer of a coin in production', () => {
  it('says a coin whose project publishes no daemon is not offered, not that servers are being prepared', () => {
    expect(offerOf(coin('PLAYA3ULL GAMES', 'playa3ull-node'), fleet, new Map())).toEqual({
      offered: false,
      reason: 'PLAYA3ULL GAMES nodes are not offered: the project does not publish the node software they run.',
      missing: expect.stringMatching(/^profile playa3ull-node: No public daemon exists/),
    });
  });

  it('says a verified coin not checked yet is coming soon, and tells the operator the command', () => {
    expect(offerOf(coin('PACGlobal', 'pacglobald'), fleet, new Map())).toEqual({
      offered: false,
      reason: 'PACGlobal nodes are coming soon: the servers that run them are being prepared. Please check back later.',
      missing: 'not checked yet: run `npm run nodekeep -- coins check x`',
    });
  });

  it('offers every coin in the demo', () => {
    expect(offerOf(coin('PLAYA3ULL GAMES', 'playa3ull-node'), { ...fleet, simulator: true }, new Map())).toEqual({
      offered: true,
    });
  });
});
