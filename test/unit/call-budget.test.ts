import { describe, expect, it } from 'vitest';
import { CALL_BUDGETS, CallBudget, MAX_PAUSED_REFUSALS } from '../../src/server/guards/call-budget';
import { callTurns } from '../../src/server/guards/call-turns';

describe('call budget', () => {
  it('takes a batch all or nothing from the rate, says when it fits again, and refills', async () => {
    let now = 0;
    const budget = new CallBudget({ now: () => now });
    const payer = await budget.payer(null, '198.51.100.7');
    const { burst, perSecond } = CALL_BUDGETS.address;
    for (let i = 0; i < burst / 20; i++) {
      const a = budget.take(payer, 20);
      expect(a.ok).toBe(true);
      if (a.ok) a.release();
    }
    const refused = budget.take(payer, 20);
    expect(refused).toEqual({ ok: false, retryAfterS: Math.ceil(20 / perSecond) });
    now += (20 / perSecond) * 1000;
    expect(budget.take(payer, 20).ok).toBe(true);
  });

  it('refuses calls past the concurrency until answers are released', async () => {
    const budget = new CallBudget({ now: () => 0 });
    const payer = await budget.payer(null, '198.51.100.8');
    const held = Array.from({ length: CALL_BUDGETS.address.inFlight / 20 }, () => budget.take(payer, 20));
    expect(held.every((a) => a.ok)).toBe(true);
    expect(budget.take(payer, 1)).toEqual({ ok: false, retryAfterS: 1 });
    (held[0] as { release(): void }).release();
    (held[0] as { release(): void }).release(); // twice counts once
    expect(budget.take(payer, 20).ok).toBe(true);
    expect(budget.take(payer, 1).ok).toBe(false);
  });

  it('charges a token to the account it signs in now, whatever the address; otherwise (none, bogus, revoked) its address; an IPv6 /64 is one address', async () => {
    const owners = new Map([['tok', 42]]);
    const budget = new CallBudget({ now: () => 0, ownerOf: async (token) => owners.get(token) ?? null });
    expect(await budget.payer('tok', '198.51.100.9')).toMatchObject({
      key: 'account:42',
      rule: CALL_BUDGETS.account,
      pool: 'account',
    });
    expect((await budget.payer('tok', '203.0.113.1')).key).toBe('account:42');
    expect((await budget.payer('bogus', '198.51.100.9')).key).toBe('address:198.51.100.9');
    owners.delete('tok'); // logged out, revoked: the next request pays from its address
    expect((await budget.payer('tok', '198.51.100.9')).key).toBe('address:198.51.100.9');
    expect((await budget.payer('other', '2001:db8:1:2::1')).key).toBe(
      (await budget.payer(null, '2001:db8:1:2:ffff::9')).key,
    );
  });

  it("counts IPv6 guests per /48 too: its /64s share four addresses' worth of calls in flight", async () => {
    const budget = new CallBudget({ now: () => 0 });
    const payers = await Promise.all([1, 2, 3, 4, 5].map((n) => budget.payer(null, `2001:db8:7:${n}::1`)));
    for (const p of payers.slice(0, 4)) expect(budget.take(p, CALL_BUDGETS.address.inFlight).ok).toBe(true);
    expect(budget.take(payers[4], 1)).toEqual({ ok: false, retryAfterS: 1 });
    // Another /48 is untouched.
    expect(budget.take(await budget.payer(null, '2001:db8:8:1::1'), 1).ok).toBe(true);
  });

  it('lets a payer hold a bounded number of paused refusals, freed as they end', () => {
    const budget = new CallBudget();
    const held = Array.from({ length: MAX_PAUSED_REFUSALS }, () => budget.holdRefusal('address:198.51.100.10'));
    expect(held.every((h) => h !== null)).toBe(true);
    expect(budget.holdRefusal('address:198.51.100.10')).toBeNull();
    expect(budget.holdRefusal('address:198.51.100.11')).not.toBeNull(); // another payer's own
    held[0]!();
    held[0]!(); // twice counts once
    expect(budget.pausedRefusals('address:198.51.100.10')).toBe(MAX_PAUSED_REFUSALS - 1);
    expect(budget.holdRefusal('address:198.51.100.10')).not.toBeNull();
  });
});

describe('call turns', () => {
  it('starts the first call at once and each further call in a later turn of the event loop, at most 4 running', async () => {
    const turns = callTurns(4);
    const log: string[] = [];
    const running = new Set<number>();
    let most = 0;
    // Half the calls wait on something outside (a daemon), which answers once the next call has started: the others overlap them.
    const daemon = Array.from({ length: 10 }, () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    });
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const done = await turns.take();
        running.add(i);
        most = Math.max(most, running.size);
        log.push(`start ${i}`);
        if (i > 0) daemon[i - 1].resolve();
        if (i % 2 && i < 9) await daemon[i].promise;
        running.delete(i);
        done();
      }),
    );
    expect(log).toEqual(Array.from({ length: 10 }, (_, i) => `start ${i}`));
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThan(1);
  });

  it('gives the event loop back between calls that never wait', async () => {
    const turns = callTurns();
    const order: string[] = [];
    const calls = Array.from({ length: 3 }, async (_, i) => {
      const done = await turns.take();
      order.push(`call ${i}`);
      done();
    });
    setImmediate(() => order.push('other client'));
    await Promise.all(calls);
    expect(order.indexOf('other client')).toBeGreaterThan(0);
    expect(order.indexOf('other client')).toBeLessThan(order.length - 1);
  });

  it("queues one payer's calls together, whatever request they came in; another payer's call starts at once", async () => {
    const budget = new CallBudget({ now: () => 0 });
    const order: string[] = [];
    const call = async (payer: string, name: string) => {
      const done = await budget.turnsFor(payer).take();
      order.push(name);
      done();
    };
    // Two batches of the flooding account, then a customer's call, all arriving together.
    const floods = [
      ...Array.from({ length: 10 }, (_, i) => call('account:1', `a${i}`)),
      ...Array.from({ length: 10 }, (_, i) => call('account:1', `b${i}`)),
    ];
    const customer = call('account:2', 'customer');
    await Promise.all([...floods, customer]);
    expect(order.indexOf('customer')).toBeLessThanOrEqual(1);
    // Drained: the queue is forgotten, and the next call starts at once again.
    let started = false;
    const next = budget
      .turnsFor('account:1')
      .take()
      .then((done) => ((started = true), done()));
    await Promise.resolve();
    expect(started).toBe(true);
    await next;
  });
});
