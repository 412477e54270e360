import { nodesByStatus } from './fleet-queries';
import type { FleetDeps } from './fleet-deps';

/** The nodes gauge (by status and coin), refilled after each pass of the control loop. */
export async function updateGauges(d: Pick<FleetDeps, 'db' | 'metrics'>): Promise<void> {
  const rows = await nodesByStatus(d.db);
  // Reset and refill without an await in between, so a scrape never sees the gauge empty.
  d.metrics.nodes.reset();
  for (const r of rows) d.metrics.nodes.set({ status: r.status, coin: r.coin_id }, Number(r.n));
}
