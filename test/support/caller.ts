import { expect } from 'vitest';
import { TRPCError } from '@trpc/server';
import fs from 'node:fs';
import { loadConfig } from '../../src/server/kernel/config';
import { openSecretBox } from '../../src/server/secrets/box';
import type { FleetAccess } from '../../src/server/fleet/access';
import { loadDaemonFacts } from '../../src/server/fleet/daemon-facts';
import { loadProfiles } from '../../src/server/fleet/profiles';
import type { AppDeps } from '../../src/server/rpc/context';
import { callerChecks } from '../../src/server/app';
import { migrateToLatest, openDatabase } from '../../src/server/db/open';
import { EventHub } from '../../src/server/events/hub';
import { RateLimiter } from '../../src/server/guards/rate-limit';
import { memoryLogger } from '../../src/server/kernel/log';
import { tempDataDir } from './server';
import { callerFor, freshUser, outboxLink as outboxLinkIn } from './users';

/**
 * The platform's dependencies over a real SQLite file, without HTTP: for calling
 * procedures through `createCaller`. Mail stays in the outbox table (nothing sends it),
 * so tests read links from there.
 */
export async function makeDeps() {
  const dataDir = tempDataDir();
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://nodekeep.test' });
  const db = openDatabase(config.dbFile);
  await migrateToLatest(db);
  const log = memoryLogger();
  const hub = new EventHub(db, log);
  await hub.start();
  const deps: AppDeps = {
    db,
    config,
    log,
    limiter: new RateLimiter(),
    hub,
    mail: { kick: async () => {} },
    fleet: offlineFleet(),
    secrets: openSecretBox(dataDir, config),
    callers: callerChecks,
    // No runner in procedure tests: no recurring job runs, so none is failing.
    jobs: { failing: () => [], poke: async () => {} },
  };
  return {
    deps,
    db,
    log,
    caller: callerFor(deps),
    async close() {
      hub.stop();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * This tier runs no fleet (no control loop, no daemons, no sockets): deploys are written
 * and stay `requested`; calls that need a node's daemon answer that it is not running.
 */
export function offlineFleet(): FleetAccess {
  return {
    profiles: loadProfiles('catalog/daemons.json'),
    facts: loadDaemonFacts('catalog/daemon-facts'),
    simulator: true,
    reconcile: async () => {},
    daemonOf: async () => null,
    stopNode: async () => {},
    daemonLog: async () => null,
    setOperatorKey: async () => {
      throw new Error('no fleet in this tier');
    },
    simulateDeposit: async () => {
      throw new Error('no fleet in this tier');
    },
    checkBurn: async () => ({
      ok: false,
      message: 'The burn transaction cannot be checked right now. Please try again later.',
    }),
    runNodeOnVersion: async () => {
      throw new Error('no fleet in this tier');
    },
  };
}

export type Deps = Awaited<ReturnType<typeof makeDeps>>;

export { newUserInput } from './users';

/** The newest mail in the outbox to `to`, and the first link in it with `pathPrefix`. */
export function outboxLink(d: Deps, to: string, pathPrefix: string): Promise<string> {
  return outboxLinkIn(d.db, to, pathPrefix);
}

/** A fresh user, registered and logged in but not verified (see `freshUser` for more). */
export async function registerAndLogin(d: Deps) {
  const { username, email, password, token } = await freshUser(d.deps, { verified: false });
  return { username, email, password, token };
}

/** The TRPCError a procedure call is refused with (fails the test if it succeeds or throws anything else). */
export async function rejection(p: Promise<unknown>): Promise<TRPCError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}
