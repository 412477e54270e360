import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterRaise, raise } from '../src/server/notifications/raise';
import { liveClient } from './support/live';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser } from './support/users';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

const node = (mn_id: string) => ({ mn_id, coin: 'Dash' });

describe('new_notification over the live channel', () => {
  it('reaches only its owner, only after the commit, never for a rolled-back raise', async () => {
    const [aliceUser, bobUser] = [
      await freshUser(s.deps, { prefix: 'alice' }),
      await freshUser(s.deps, { prefix: 'bob' }),
    ];
    const alice = liveClient(s.url, aliceUser.token);
    const bob = liveClient(s.url, bobUser.token);
    try {
      await expect.poll(() => alice.types()).toContain('sync');
      await expect.poll(() => bob.types()).toContain('sync');
      const notes = (c: typeof alice) =>
        c.received.filter((e) => e.type === 'new_notification').map((e) => e.payload.message as string);

      // Raised but not committed: the hub is poked (its read waits for this transaction's
      // connection) and nothing is sent. Witness: a round trip on alice's own socket,
      // begun after the raise and the poke, whose answer comes after any frame sent before it.
      await s.deps.db.transaction().execute(async (trx) => {
        await raise(trx, aliceUser.id, 'node_down', node('mn-1'));
        void s.deps.hub.poke();
        await alice.roundTrip();
        expect(notes(alice)).toEqual([]);
      });
      afterRaise(s.deps);
      await expect.poll(() => notes(alice)).toEqual(['Your Dash node mn-1 is down.']);
      const i = alice.types().indexOf('new_notification');
      expect(alice.received[i].payload).toEqual({
        message: 'Your Dash node mn-1 is down.',
        icon: 'down',
        link: '/dashboard/masternode/mn-1',
      });
      await expect.poll(() => alice.types().slice(i)).toEqual(['new_notification', 'refresh_notifications']);

      // Rolled back: never delivered (the next raise arrives, and it alone).
      await s.deps.db
        .transaction()
        .execute(async (trx) => {
          await raise(trx, aliceUser.id, 'node_down', node('mn-rolled-back'));
          throw new Error('rolled back');
        })
        .catch(() => {});
      await raise(s.deps.db, aliceUser.id, 'node_up', node('mn-1'));
      afterRaise(s.deps);
      await expect
        .poll(() => notes(alice))
        .toEqual(['Your Dash node mn-1 is down.', 'Your Dash node mn-1 is back up.']);

      // A real trigger: alice logs in from a new address; her open tab hears of it.
      await fetch(`${s.url}/public_api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: aliceUser.username, password: aliceUser.password }),
      });
      await expect
        .poll(() => notes(alice).at(-1))
        .toBe('New login to your account from 127.0.0.1. If this was not you, change your password now.');

      // Bob's own notification comes after all of alice's: events reach a client in
      // order, so had any of hers leaked, it would be there before his.
      await raise(s.deps.db, bobUser.id, 'node_deployed', node('mn-b'));
      afterRaise(s.deps);
      await expect.poll(() => notes(bob)).toEqual(['Your Dash node mn-b is deployed and syncing.']);
      await expect.poll(() => bob.types().filter((t) => t === 'refresh_notifications').length).toBe(1);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
