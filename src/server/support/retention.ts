/** Support's pruning of held conversations never confirmed, run by housekeeping (SQL stays in support/queries.ts). */
export { pruneHeldConversations } from './queries';
