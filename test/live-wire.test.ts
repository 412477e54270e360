import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { insertEvent } from '../src/server/events/outbox';
import { liveEncoder } from '../src/server/live/ws-limits';
import { startTestServer, stopTestServer } from './support/server';
import { freshUser } from './support/users';

const cleanup: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A raw socket speaking tRPC's wire format as wsLink does, keeping every frame's text. */
async function rawSubscription(url: string, token: string, id: number, lastEventId?: string) {
  const frames: string[] = [];
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/live?connectionParams=1`);
  cleanup.push(() => ws.terminate());
  ws.on('message', (data) => {
    const text = String(data);
    if (text !== 'PING') frames.push(text);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ method: 'connectionParams', data: { token } }));
  ws.send(
    JSON.stringify({
      id,
      jsonrpc: '2.0',
      method: 'subscription',
      params: { path: 'events.live', input: undefined, lastEventId },
    }),
  );
  const data = () => frames.filter((f) => JSON.parse(f).result?.type === 'data');
  return { frames, data };
}

describe('the live fast path', () => {
  it("writes hub events as the very frames tRPC sends, without tRPC's encoder", async () => {
    const s = await startTestServer();
    cleanup.push(() => stopTestServer(s));
    const user = await freshUser(s.deps);
    const first = await rawSubscription(s.url, user.token, 7);
    await expect.poll(() => first.data().length).toBe(1);
    const syncId = JSON.parse(first.data()[0]).result.id as string;

    const encode = vi.spyOn(liveEncoder, 'encode');
    await insertEvent(s.deps.db, user.id, 'update_balance', { balance: 3.25 });
    await insertEvent(s.deps.db, null, 'update_stats', {});
    await insertEvent(s.deps.db, user.id, 'new_notification', {
      message: 'é "quoted" \u2028 </script>',
      link: '/dashboard',
    });
    await s.deps.hub.poke();
    await expect.poll(() => first.data().length).toBe(4);
    // Both went out directly: tRPC encoded no data frame for them.
    expect(encode.mock.calls.filter(([d]) => (d as { result?: { type?: string } }).result?.type === 'data')).toEqual(
      [],
    );
    encode.mockRestore();

    // The same events replayed to a reconnect go through tRPC: byte for byte the same frames.
    const again = await rawSubscription(s.url, user.token, 7, syncId);
    await expect.poll(() => again.data().length).toBe(3);
    expect(again.data()).toEqual(first.data().slice(1));
    expect(JSON.parse(first.data()[1])).toEqual({
      id: 7,
      jsonrpc: '2.0',
      result: {
        type: 'data',
        id: String(Number(syncId) + 1),
        data: { id: String(Number(syncId) + 1), data: { type: 'update_balance', payload: { balance: 3.25 } } },
      },
    });
  });
});
