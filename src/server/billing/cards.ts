/** Which accounts paid with which card, for the referral checks (SQL stays in billing/card/queries.ts). */
export { cardUsedBy, otherCardPayers, shareACard } from './card/queries';
