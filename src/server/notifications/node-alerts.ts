/** A node's alert state, for nodes/ (the owner mutes a node's alerts; SQL stays in alert-queries.ts). */
export { setNodeMuted } from './alert-queries';
