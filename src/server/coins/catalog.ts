/** The coin catalog, for the domains above coins (SQL stays in coins/queries.ts). */
export { coinDetails, findCoin, listCoins } from './queries';
