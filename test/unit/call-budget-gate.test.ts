import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { CALL_BUDGETS, CallBudget, MAX_PAUSED_REFUSALS } from '../../src/server/guards/call-budget';
import { restCallBudget, REFUSAL_PAUSE_MS, trpcCallBudget } from '../../src/server/http/call-budget-gate';

const IP = '198.51.100.20';

/** A REST route behind the gate, for one address; the budget's clock stands still, so nothing refills. */
function gated() {
  const budget = new CallBudget({ now: () => 0 });
  const app = new Hono();
  app.use(
    '/x',
    restCallBudget(budget, () => ({ token: null, ip: IP })),
  );
  app.get('/x', (c) => c.json({ success: true }));
  app.use(
    '/trpc/*',
    trpcCallBudget('/trpc', budget, () => ({ token: null, ip: IP })),
  );
  app.get('/trpc/*', (c) => c.json([]));
  return { budget, app, key: `address:${IP}` };
}

describe('call budget gate: refusals', () => {
  it('pauses at most MAX_PAUSED_REFUSALS refusals of one payer, answers the rest at once, and ends a pause when the client leaves', async () => {
    const { budget, app, key } = gated();
    for (let i = 0; i < CALL_BUDGETS.address.burst; i++) expect((await app.request('/x')).status).toBe(200);
    const extra = 8;
    const clients = Array.from({ length: MAX_PAUSED_REFUSALS + extra }, () => new AbortController());
    let answered = 0;
    let allAnswered!: () => void;
    const extrasAnswered = new Promise<void>((r) => (allAnswered = r));
    const answers = clients.map((client) =>
      Promise.resolve(app.request(new Request('http://x/x', { signal: client.signal }))).then((r) => {
        if (++answered === extra) allAnswered();
        return r;
      }),
    );
    // Beyond the cap, refusals are answered without waiting; the first ones are still paused.
    await extrasAnswered;
    expect(budget.pausedRefusals(key)).toBe(MAX_PAUSED_REFUSALS);
    // Every client leaves: the pauses end (long before REFUSAL_PAUSE_MS), and so does their hold.
    for (const client of clients) client.abort();
    const all = await Promise.all(answers);
    expect(all.every((r) => r.status === 429)).toBe(true);
    expect(budget.pausedRefusals(key)).toBe(0);
  });

  it("a paused refusal's Retry-After is the wait left after its pause", async () => {
    const { app } = gated();
    for (let i = 0; i < CALL_BUDGETS.address.burst; i++) await app.request('/x');
    // Empty and the clock stopped: a batch of 30 calls fits in 3 s, 2 s after the pause.
    const calls = 3 * CALL_BUDGETS.address.perSecond;
    const r = await app.request(`/trpc/${Array(calls).fill('nodes.get_masternodes').join(',')}?batch=1`);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBe(3 - REFUSAL_PAUSE_MS / 1000);
    const body = (await r.json()) as Array<{ error: { message: string; data: { retryAfter: number } } }>;
    expect(body[0].error.data.retryAfter).toBe(2);
    expect(body[0].error.message).toMatch(/wait 2 seconds/);
  });
});
