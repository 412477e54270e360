// Wires the domains' hooks before any procedure can run.
import './domain-hooks';
import { apikeysRouter } from './apikeys/router';
import { authRouter } from './auth/router';
import { setupRouter } from './auth/setup-router';
import { billingRouter } from './billing/router';
import { consoleRouter } from './console/router';
import { coinsRouter } from './coins/router';
import { deployRouter } from './deploy/router';
import { eventsRouter } from './live/router';
import { nodesRouter } from './nodes/router';
import { alertChannelsRouter } from './notifications/channels/router';
import { notificationsRouter } from './notifications/router';
import { systemRouter } from './operator/router';
import { referralsRouter } from './referrals/router';
import { supportRouter } from './support/router';
import { createCallerFactory, router } from './rpc/trpc';

export const appRouter = router({
  auth: authRouter,
  setup: setupRouter,
  coins: coinsRouter,
  deploy: deployRouter,
  nodes: nodesRouter,
  system: systemRouter,
  events: eventsRouter,
  notifications: notificationsRouter,
  apikeys: apikeysRouter,
  alertChannels: alertChannelsRouter,
  billing: billingRouter,
  referrals: referralsRouter,
  support: supportRouter,
  console: consoleRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
