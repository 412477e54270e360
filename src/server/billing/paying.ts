/** Whether users have paid (the free tier's and support's rule), for the domains above billing (SQL stays in billing/queries.ts). */
export { isPaying, payingUsers, PAYING_MINIMUM } from './queries';
