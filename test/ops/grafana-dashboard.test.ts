import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { scrape } from '../support/metrics';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { fundedUser } from '../support/users';

const TOKEN = 'operator-token-grafana-0123';

type Target = { refId: string; expr: string; datasource: { type: string; uid: string } };
type Panel = {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
};
type Dashboard = {
  __inputs: Array<{ name: string; type: string; pluginId: string }>;
  uid: string;
  title: string;
  schemaVersion: number;
  id: null;
  panels: Panel[];
};

const dashboard = JSON.parse(fs.readFileSync('docs/grafana-dashboard.json', 'utf8')) as Dashboard;
const queries = dashboard.panels.flatMap((p) => p.targets ?? []);

/** Balanced (), [] and {}, outside quoted strings: a PromQL typo Grafana would only show as a panel error. */
function balanced(expr: string): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let quoted = false;
  for (const ch of expr) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if ('([{'.includes(ch)) stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return stack.length === 0 && !quoted;
}

describe('docs/grafana-dashboard.json', () => {
  it('is an importable dashboard model with the Prometheus datasource as an input', () => {
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
    ]);
    expect(dashboard.id).toBeNull(); // a fresh import, not a copy of someone's saved one
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      if (p.type === 'row') continue;
      expect(['stat', 'timeseries'], p.title).toContain(p.type);
      expect(p.datasource, p.title).toEqual({ type: 'prometheus', uid: '${DS_PROMETHEUS}' });
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
      for (const t of p.targets!) {
        expect(t.datasource, p.title).toEqual({ type: 'prometheus', uid: '${DS_PROMETHEUS}' });
        expect(balanced(t.expr), t.expr).toBe(true);
      }
    }
    // No two panels on the same cells.
    const cells = new Set<string>();
    for (const p of dashboard.panels) {
      for (let x = p.gridPos.x; x < p.gridPos.x + p.gridPos.w; x++) {
        for (let y = p.gridPos.y; y < p.gridPos.y + p.gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `${p.title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
      }
    }
  });

  describe('against a running server', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer({ OPERATOR_TOKEN: TOKEN });
      // A charge, so the revenue account exists as on any platform that has earned something.
      const u = await fundedUser(s.deps);
      await s.deps.db.transaction().execute((trx) =>
        postTransfer(trx, {
          idempotencyKey: `g:${u.id}`,
          debit: userAccount(u.id),
          credit: PLATFORM.revenue,
          amount: 1_000_000,
          kind: 'daily_charge',
          description: 'Daily charge',
        }),
      );
    });
    afterAll(() => stopTestServer(s));

    it('queries only metrics the server exports, with label values it exports', async () => {
      // The host check's first measurement.
      let scraped = await scrape(s.url, TOKEN);
      for (
        let i = 0;
        i < 50 && ![...scraped.samples.keys()].some((k) => k.startsWith('nodekeep_host_disk_free_bytes'));
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
        scraped = await scrape(s.url, TOKEN);
      }
      const { names, samples } = scraped;
      const used = new Set(queries.flatMap((t) => [...t.expr.matchAll(/\b(nodekeep_[a-z0-9_]+)/g)].map((m) => m[1])));
      expect(used.size).toBeGreaterThan(15);
      for (const name of used) {
        const base = name.replace(/_(bucket|count|sum)$/, '');
        expect(names.has(name) || names.has(base), `${name} is not in /metrics`).toBe(true);
      }
      // Every metric the server adds for the business is on the dashboard.
      for (const name of names) if (!/^nodekeep_/.test(name)) names.delete(name);
      expect([...names].filter((n) => !used.has(n) && !used.has(`${n}_bucket`)).sort()).toEqual([]);
      // A selector with a label value selects something.
      for (const t of queries) {
        for (const m of t.expr.matchAll(/(nodekeep_[a-z0-9_]+)\{([^}]*)\}/g)) {
          const matchers = [...m[2].matchAll(/(\w+)="([^"]*)"/g)].map((x) => `${x[1]}="${x[2]}"`);
          const hit = [...samples.keys()].some((k) => k.startsWith(`${m[1]}{`) && matchers.every((x) => k.includes(x)));
          expect(hit, `${m[0]} selects nothing in /metrics`).toBe(true);
        }
      }
    });
  });
});
