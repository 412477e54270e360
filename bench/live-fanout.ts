import { machine, writeSection } from './report';
import { startChild } from './live/ipc';

/**
 * Live event fan-out (issue 9): N websocket subscriptions to `events.live` on one
 * server process, each authenticated with its own session, then one event to each.
 * Server, clients and the bare yardstick each run in their own process, so the
 * clients do not share the server's event loop or count in its memory. Goal: p99
 * delivery under 250 ms at 10,000 subscriptions.
 */
const N = Number(process.env.LIVE_BENCH_SUBSCRIPTIONS ?? 10_000);
// The server takes at most 20 sockets per address (ws-limits.ts); the clients use 10.
const PER_IP = 10;
const CONCURRENCY = 100;
const GOAL_P99_MS = 250;
/** A path prefix for the server's CPU profiles of the broadcast, to see where the time goes. */
const PROFILE = process.env.LIVE_BENCH_CPU_PROFILE;

type Mem = { rssKiB: number; heapUsed: number; gc: boolean; subscribers: number };
type Stats = { delivered: number; p50: number; p95: number; p99: number; max: number };

function stats(latencies: (number | null)[]): Stats {
  const ok = latencies.filter((x): x is number => x !== null).sort((a, b) => a - b);
  const at = (q: number) => ok[Math.max(0, Math.ceil(q * ok.length) - 1)] ?? NaN;
  return { delivered: ok.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: ok[ok.length - 1] ?? NaN };
}

const ms = (x: number) => x.toFixed(1);
const row = (name: string, s: Stats, bytes: number) => `| ${name} | ${s.delivered} / ${N} | ${bytes} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`;
const perSub = (before: Mem, after: Mem) => ({ rss: ((after.rssKiB - before.rssKiB) * 1024) / N, heap: (after.heapUsed - before.heapUsed) / N });
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function platformRun() {
  const server = await startChild('bench/live/server-child.ts');
  const clients = await startChild('bench/live/clients.ts');
  try {
    const { url } = await server.call<{ url: string }>('ready');
    console.log(`live bench: seeding ${N} users`);
    const users = await server.call<{ id: number; token: string }[]>('seed', { n: N });
    const before = await server.call<Mem>('memory');
    console.log('live bench: opening subscriptions');
    const { openMs } = await clients.call<{ openMs: number }>('open', { url: `${url.replace(/^http/, 'ws')}/live`, n: N, tokens: users.map((u) => u.token), perIp: PER_IP, concurrency: CONCURRENCY });
    const after = await server.call<Mem>('memory');
    if (after.subscribers !== N) throw new Error(`the hub has ${after.subscribers} subscribers, expected ${N}`);

    console.log('live bench: one broadcast event');
    await clients.call('arm', { text: '"update_stats"' });
    if (PROFILE) await server.call('profileStart');
    const { sentAt } = await server.call<{ sentAt: number }>('broadcast');
    const b = await clients.call<{ recvAt: (number | null)[]; sample: string }>('collect', { timeoutMs: 30_000 });
    if (PROFILE) await server.call('profileStop', { file: `${PROFILE}.broadcast.cpuprofile` });
    const broadcast = stats(b.recvAt.map((t) => (t === null ? null : t - sentAt)));

    console.log('live bench: one event per user, in one transaction');
    await clients.call('arm', { text: '"update_balance"' });
    if (PROFILE) await server.call('profileStart');
    const batchSent = await server.call<{ sentAt: number }>('batchEach', { userIds: users.map((u) => u.id) });
    const bb = await clients.call<{ recvAt: (number | null)[]; sample: string }>('collect', { timeoutMs: 60_000 });
    if (PROFILE) await server.call('profileStop', { file: `${PROFILE}.batch.cpuprofile` });
    const batch = stats(bb.recvAt.map((t) => (t === null ? null : t - batchSent.sentAt)));

    console.log('live bench: one notification per user');
    await clients.call('arm', { text: '"new_notification"' });
    const r = await server.call<{ sentAt: Record<number, number>; raiseMs: number }>('raiseEach', { userIds: users.map((u) => u.id) });
    const e = await clients.call<{ recvAt: (number | null)[]; sample: string }>('collect', { timeoutMs: 60_000 });
    const each = stats(e.recvAt.map((t, i) => (t === null ? null : t - r.sentAt[users[i].id])));
    await clients.call('close');
    return { openMs, before, after, broadcast, broadcastFrame: b.sample, batch, batchFrame: bb.sample, each, eachFrame: e.sample, raiseMs: r.raiseMs };
  } finally {
    await clients.stop();
    await server.stop();
  }
}

/** The same sockets and frames from a plain `ws` server: what the platform's path adds shows as the ratio. */
async function bareRun(frames: string[]) {
  const bare = await startChild('bench/live/bare-server.ts');
  const clients = await startChild('bench/live/clients.ts');
  try {
    const { url } = await bare.call<{ url: string }>('ready');
    const before = await bare.call<Mem>('memory');
    await clients.call('open', { url, n: N, tokens: null, perIp: PER_IP, concurrency: CONCURRENCY });
    const after = await bare.call<Mem>('memory');
    const results: Stats[] = [];
    for (const text of frames) {
      await clients.call('arm', { text });
      const { sentAt } = await bare.call<{ sentAt: number }>('broadcast', { text });
      const got = await clients.call<{ recvAt: (number | null)[] }>('collect', { timeoutMs: 30_000 });
      results.push(stats(got.recvAt.map((t) => (t === null ? null : t - sentAt))));
    }
    await clients.call('close');
    return { before, after, results };
  } finally {
    await clients.stop();
    await bare.stop();
  }
}

export async function benchLiveFanout() {
  const p = await platformRun();
  console.log('live bench: bare ws yardstick');
  const bare = await bareRun([p.broadcastFrame, p.batchFrame, p.eachFrame]);
  const [bareBroadcast, bareBatch, bareEach] = bare.results;
  const pm = perSub(p.before, p.after);
  const bm = perSub(bare.before, bare.after);
  const bytes = (s: string) => Buffer.byteLength(s);
  const worst = Math.max(p.broadcast.p99, p.batch.p99, p.each.p99);
  const allDelivered = [p.broadcast, p.batch, p.each].every((s) => s.delivered === N);
  const verdict = allDelivered && worst < GOAL_P99_MS ? 'meets the goal' : 'misses the goal';
  const body = `## Live event fan-out: ${N.toLocaleString('en-US')} websocket subscriptions

${new Date().toISOString().slice(0, 10)} on ${machine()}.
The real server (tRPC \`events.live\` over \`ws\`, hub, session guard, SQLite in WAL) in one process; ${N} users with a session each, written straight to SQLite; ${N} sockets from one client process (another process, ${PER_IP} sockets per loopback address 127.1.x.y, raw \`ws\` speaking tRPC's wire format), each subscribed and past its first (sync) frame before the clock starts. Latency is from the raiser's call to the frame's arrival at the client (wall clocks of one machine). The bare yardstick is a plain \`ws\` server in its own process sending the same bytes to the same number of sockets in one loop, timed from the loop's start. Count: \`LIVE_BENCH_SUBSCRIPTIONS\` (default 10000; the server admits at most 10,000 sockets). Goal: p99 under ${GOAL_P99_MS} ms.

| event | delivered | frame bytes | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|---|
${row('bare `ws` server, one frame to every socket', bareBroadcast, bytes(p.broadcastFrame))}
${row('platform: one `update_stats` event for all users (user_id null: one row, one hub pass)', p.broadcast, bytes(p.broadcastFrame))}
${row('bare `ws` server, the balance frame to every socket', bareBatch, bytes(p.batchFrame))}
${row(`platform: one \`update_balance\` event per user, all ${N} written in one transaction (the hub reads them 500 at a time)`, p.batch, bytes(p.batchFrame))}
${row(`bare \`ws\` server, the notification frame to every socket`, bareEach, bytes(p.eachFrame))}
${row(`platform: one notification raised per user (\`raise\` + \`afterRaise\`, ${N} transactions in ${(p.raiseMs / 1000).toFixed(1)} s), its \`new_notification\` event`, p.each, bytes(p.eachFrame))}

p99 against the bare server's: broadcast ${(p.broadcast.p99 / bareBroadcast.p99).toFixed(1)}×, one per user in one transaction ${(p.batch.p99 / bareBatch.p99).toFixed(1)}×, one notification per user ${(p.each.p99 / bareEach.p99).toFixed(1)}×. Worst p99 ${ms(worst)} ms: ${verdict}.

| server memory (VmRSS; heap after a forced GC) | before | with ${N} subscriptions | per subscription |
|---|---|---|---|
| platform RSS | ${(p.before.rssKiB / 1024).toFixed(0)} MiB | ${(p.after.rssKiB / 1024).toFixed(0)} MiB | ${kib(pm.rss)} |
| platform JS heap | ${(p.before.heapUsed / 2 ** 20).toFixed(0)} MiB | ${(p.after.heapUsed / 2 ** 20).toFixed(0)} MiB | ${kib(pm.heap)} |
| bare \`ws\` server RSS | ${(bare.before.rssKiB / 1024).toFixed(0)} MiB | ${(bare.after.rssKiB / 1024).toFixed(0)} MiB | ${kib(bm.rss)} |
| bare \`ws\` server JS heap | ${(bare.before.heapUsed / 2 ** 20).toFixed(0)} MiB | ${(bare.after.heapUsed / 2 ** 20).toFixed(0)} MiB | ${kib(bm.heap)} |

Opening the ${N} subscriptions (${CONCURRENCY} handshakes in flight) took ${(p.openMs / 1000).toFixed(1)} s.`;
  writeSection('live_fanout', body);
  console.log(body);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLiveFanout();
