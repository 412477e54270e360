/** A user's latest notifications, for the console's customer page (SQL stays in notifications/queries.ts). */
export { recentNotifications } from './queries';
