import type { DB } from '../db/open';
import type { DemoBase } from '../market/demo';
import { coinDetails, listCoins } from './queries';

/** The demo figures the catalog gives each coin, by market id (the demo price source's bases). */
export async function demoBasesFromCatalog(db: DB): Promise<Map<string, DemoBase>> {
  const coins = await listCoins(db);
  return new Map(
    coins
      .filter((c) => c.market_id)
      .map((c) => {
        const d = coinDetails(c).demo_market;
        return [c.market_id!, { price: d.price, volume_24h: d.volume_24h, market_cap: d.market_cap, ticker: c.ticker }];
      }),
  );
}
