/** Notifications' pruning of cleared rows, run by housekeeping (SQL stays in notifications/queries.ts). */
export { pruneClearedNotifications } from './queries';
