/** Auth's pruning of expired rows, run by housekeeping (SQL stays in auth/queries.ts). */
export { pruneEndedSessions, prunePageVisits, pruneUsernameHolds } from './queries';
