import { writeFileSync } from 'node:fs';
import { writeHeapSnapshot } from 'node:v8';
import { Session } from 'node:inspector/promises';
import { insertSession, insertUser } from '../../src/server/auth/queries';
import { hashToken, newToken } from '../../src/server/auth/tokens';
import { insertEvent } from '../../src/server/events/outbox';
import { afterRaise, raise } from '../../src/server/notifications/raise';
import { startTestServer, stopTestServer } from '../../test/support/server';
import { memory, serveParent, wallMs } from './ipc';

/**
 * The real platform in its own process, for the live fan-out bench: it seeds users and
 * sessions, reports its memory, and raises events through the real paths when told.
 */
const profiler = new Session();
profiler.connect();
const started = startTestServer({ LOG_LEVEL: 'error', FLEET_SIMULATOR: 'false' });

serveParent(
  {
    ready: async () => ({ url: (await started).url }),
    /**
     * `n` users with one live session each, written straight to SQLite (registration
     * hashes a password with argon2: minutes for 10,000). Returns their ids and tokens.
     */
    seed: async ({ n }: { n: number }) => {
      const { db, config } = (await started).deps;
      const run = Date.now().toString(36);
      return db.transaction().execute(async (trx) => {
        const users: { id: number; token: string }[] = [];
        for (let i = 0; i < n; i++) {
          const username = `live${run}${i}`;
          const id = await insertUser(trx, {
            username,
            email: `${username}@example.test`,
            password_hash: 'bench: no password',
            referrer: null,
            referrer_id: null,
            room_id: newToken(16),
            qr_key: newToken(16),
          });
          const token = newToken();
          await insertSession(trx, {
            user_id: id,
            token_hash: hashToken(token),
            ip: '127.0.0.1',
            user_agent: 'bench',
            expires_at: Date.now() + config.sessionTtlMs,
          });
          users.push({ id, token });
        }
        return users;
      });
    },
    /** CPU profile of this process between the two calls (LIVE_BENCH_CPU_PROFILE=file): where the fan-out spends its time. */
    profileStart: async () => {
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      return true;
    },
    profileStop: async ({ file }: { file: string }) => {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      return true;
    },
    /** A heap snapshot (to see what a subscription holds). */
    heapSnapshot: ({ file }: { file: string }) => writeHeapSnapshot(file),
    memory: async () => ({ ...memory(), subscribers: (await started).deps.hub.subscriberCount }),
    /** One event for every connected user (user_id null), as a market refresh sends `update_stats`. */
    broadcast: async () => {
      const { db, hub } = (await started).deps;
      const sentAt = wallMs();
      await db.transaction().execute((trx) => insertEvent(trx, null, 'update_stats', {}));
      await hub.poke();
      return { sentAt };
    },
    /**
     * One event per user written in one transaction, then one poke: the hub drains them
     * together, as it does events that pile up between polls (written by the operator
     * CLI, another process) or by one job touching many users.
     */
    batchEach: async ({ userIds }: { userIds: number[] }) => {
      const { db, hub } = (await started).deps;
      const sentAt = wallMs();
      await db.transaction().execute(async (trx) => {
        for (const id of userIds) await insertEvent(trx, id, 'update_balance', { balance: 12.5 });
      });
      await hub.poke();
      return { sentAt };
    },
    /**
     * One notification per user through the one raiser (its own transaction each, the
     * hub poked after each commit, as the monitor raises alerts). The kind is a reward,
     * mailed only when the user turned that on (off by default), so no mail is queued.
     */
    raiseEach: async ({ userIds }: { userIds: number[] }) => {
      const deps = (await started).deps;
      const sentAt: Record<number, number> = {};
      const t0 = wallMs();
      for (const id of userIds) {
        sentAt[id] = wallMs();
        await raise(deps.db, id, 'reward', { mn_id: `mn-${id}`, coin: 'Dash', amount: '1.44 DASH' });
        afterRaise(deps);
      }
      return { sentAt, raiseMs: wallMs() - t0 };
    },
  },
  async () => stopTestServer(await started),
);
