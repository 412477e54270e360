/** The stored quotes and history, for the domains that show or use prices (SQL stays in market/queries.ts). */
export { allQuotes, findQuote, lastHistory } from './queries';
