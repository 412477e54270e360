import { randomUUID } from 'node:crypto';
import { recordServerSettings } from './operator/settings';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { callerChecks, createApp, WS_PATH } from './app';
import type { Config } from './kernel/config';
import { clientIp, createContext, type AppDeps, type Context } from './rpc/context';
import { assertDataDirOwner, lockDataDir } from './db/data-dir';
import { openDatabase, type DB } from './db/open';
import { upgradeDatabase } from './db/upgrade';
import { EventHub } from './events/hub';
import { insertEvent } from './events/outbox';
import { bindLiveSocket, flatString } from './live/direct';
import { frameBudget, liveEncoder, socketGate, upgradeSummary, usableHost } from './live/ws-limits';
import { schedulePruning } from './housekeeping/prune';
import { scheduleDepositWatch } from './billing/crypto/watcher';
import { scheduleDailyCharge } from './billing/daily-charge';
import { scheduleReferralBonuses } from './referrals/mature';
import { handleQuickSetup } from './nodes/quick-setup-job';
import { handleCoinCheck } from './nodes/coin-checks';
import { handleImageBuilds } from './nodes/image-build-job';
import { scheduleRollouts } from './nodes/rollouts';
import { scheduleBackups, writeBackup } from './ops/backup';
import { openSecretBox } from './secrets/box';
import { sealMovedMasternodeKeys } from './nodes/key-moves';
import { capConnectionsPerAddress, requestTimeouts } from './http/conn-limit';
import { closeLiveSockets, drainHttp } from './http/drain';
import { JobRunner } from './jobs/runner';
import { RateLimiter } from './guards/rate-limit';
import { createLogger, type Logger } from './kernel/log';
import { MailDispatcher } from './mail/dispatcher';
import { handleNotificationMail } from './notifications/mail';
import { handleChannelDelivery } from './notifications/channels/delivery';
import { handleQuietSummary } from './notifications/quiet';
import { logMailer, smtpMailer } from './mail/mailer';
import { bundledCatalogPath, importCatalog } from './coins/import';
import { ResponseCache } from './http/response-cache';
import { coinGeckoProvider } from './market/coingecko';
import { demoProvider } from './market/demo';
import { demoBasesFromCatalog } from './coins/demo-market';
import type { MarketDataProvider } from './market/provider';
import { MarketRefresher } from './market/refresher';
import { dockerEngineFor } from './nodes/hosts';
import { loadProfiles } from './fleet/profiles';
import { loadDaemonFacts } from './fleet/daemon-facts';
import { Fleet } from './nodes/runtime';
import type { CloseOptions } from './fleet/engine';
import { appRouter } from './router';
import { openSetupLink } from './auth/first-run';
import { readinessProbe } from './ops/readiness';
import { registerBusinessMetrics } from './ops/business-metrics';

function marketProvider(config: Config, db: DB, log: Logger): MarketDataProvider {
  if (config.marketProvider === 'coingecko')
    return coinGeckoProvider({ baseUrl: config.marketApiUrl, apiKey: config.marketApiKey || undefined }, log);
  return demoProvider(() => demoBasesFromCatalog(db));
}

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  fleet: Fleet;
  /** The job runner (tests stop it to see /readyz fail). */
  jobs: JobRunner;
  /** Stops everything; the local daemons too unless `keepDaemons` (the next start adopts them). */
  close(opts?: CloseOptions): Promise<void>;
};

/**
 * Starts the whole platform in this process: database and migrations, mail and
 * event dispatchers, HTTP (Hono) and the websocket endpoint for live events.
 */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const state = { ready: false };
  // Before anything is written: one server per data folder (limits, node starts and
  // the simulator all assume it).
  assertDataDirOwner(config.dataDir, config.dbFile);
  const dataLock = lockDataDir(config.dataDir);
  try {
    return await startLocked(config, log, state, dataLock);
  } catch (err) {
    dataLock.release();
    throw err;
  }
}

async function startLocked(
  config: Config,
  log: Logger,
  state: { ready: boolean },
  dataLock: { release(): void },
): Promise<RunningServer> {
  // What has started so far, undone in reverse if a later step fails (a port in use):
  // the lock is released then, so nothing of this start may keep running.
  const undo: Array<() => unknown> = [];
  try {
    return await startParts(config, log, state, dataLock, undo);
  } catch (err) {
    for (const step of undo.reverse()) await Promise.resolve(step()).catch(() => {});
    throw err;
  }
}

async function startParts(
  config: Config,
  log: Logger,
  state: { ready: boolean },
  dataLock: { release(): void },
  undo: Array<() => unknown>,
): Promise<RunningServer> {
  // Before the database: a missing key file is created now (first start), a bad one stops the start.
  const secrets = openSecretBox(config.dataDir, config);
  log.info('secrets key', { source: secrets.keySource });
  const db = openDatabase(config.dbFile);
  undo.push(() => db.destroy());
  const { applied } = await upgradeDatabase(db, config, log, writeBackup);
  if (applied.length) log.info('migrations applied', { migrations: applied });
  // Masternode keys an older version kept in plaintext, moved aside by a migration: sealed now that the box is open.
  await sealMovedMasternodeKeys(db, secrets, log);

  // All background work runs on this one runner (src/server/jobs); it starts below,
  // once every job is registered, and stops first on close.
  const jobs = new JobRunner(db, log);
  undo.push(() => jobs.stop(0));
  const hub = new EventHub(db, log);
  await hub.start(jobs);
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : logMailer(log);
  const mail = new MailDispatcher(db, mailer, log, jobs);
  handleNotificationMail(jobs, db, () => config.publicUrl, log);
  handleQuietSummary(jobs, db, () => config.publicUrl, log);
  schedulePruning(jobs, db, log);

  const catalog = await importCatalog(db, bundledCatalogPath(), 'seed');
  if (catalog.added.length) log.info('catalog coins added', { coins: catalog.added.length });

  const profiles = loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json'));
  const facts = loadDaemonFacts(config.daemonFactsDir ?? bundledCatalogPath('daemon-facts'));
  await recordServerSettings(db, {
    fleet_simulator: config.fleetSimulator,
    daemon_profiles_file: config.daemonProfilesFile ?? null,
    daemon_facts_dir: config.daemonFactsDir ?? null,
    started_at: Date.now(),
  });
  const fleet = new Fleet(db, hub, log, {
    dataDir: config.dataDir,
    secrets,
    profiles,
    facts,
    monitor: {
      nodeMs: config.monitorNodeMs,
      networkMs: config.monitorNetworkMs,
      concurrency: config.monitorConcurrency,
      daemonTimeoutMs: 5000,
      alertDownMs: config.alertDownMs,
      syncStallMs: config.syncStallMs,
    },
    jobs,
    simulator: config.fleetSimulator,
    localAddress: { ipv4: config.fleetLocalIpv4, ipv6: config.fleetLocalIpv6 },
    hostCheck: { everyMs: config.hostCheckMs, minFreeBytes: config.hostDiskMinFreeBytes },
    // Over TLS or SSH with the host's sealed credentials; a remote host publishes ports on
    // its own address, a local socket's host is this machine (nodes/hosts.ts).
    dockerFactory: (host, l) => dockerEngineFor(secrets, host, l),
    upgradeHealthTimeoutMs: config.rolloutHealthMs,
  });
  const deps: AppDeps = {
    db,
    config,
    log,
    limiter: new RateLimiter(),
    hub,
    mail,
    fleet,
    secrets,
    callers: callerChecks,
    jobs,
  };
  handleChannelDelivery(jobs, deps);
  handleQuickSetup(jobs, deps);
  handleCoinCheck(jobs, { db, log, hub, fleet });
  handleImageBuilds(jobs, { db, box: secrets, log, profiles, config });
  scheduleDepositWatch(jobs, deps, config.depositPollMs);
  const dailyChargeLate = scheduleDailyCharge(jobs, deps);
  scheduleReferralBonuses(jobs, deps);
  scheduleRollouts(jobs, deps, config.rolloutTickMs);
  scheduleBackups(jobs, deps);
  const cache = new ResponseCache();
  const market = new MarketRefresher(
    db,
    marketProvider(config, db, log),
    log,
    config.marketRefreshMinutes,
    config.marketProvider === 'demo' ? Infinity : 6,
  );
  market.onRefreshed = () => {
    cache.clear();
    // Open coin lists and top bars refetch.
    insertEvent(db, null, 'update_stats', {})
      .then(() => hub.poke())
      .catch((err) => log.warn('update_stats event not written', { err }));
  };
  market.schedule(jobs);

  undo.push(() => fleet.stop());
  await fleet.start();
  jobs.start();

  const readiness = readinessProbe({
    db,
    loops: {
      // The runner turns, its recurring jobs do not keep failing, and the day's charge is
      // done by 01:00 UTC: one check, naming what is wrong.
      job_runner: async () => {
        const failing = jobs
          .failing()
          .map((f) => `${f.name}: the last ${f.failures} runs failed (since ${f.since}): ${f.last_error}`);
        const problems = [jobs.health(), ...failing, await dailyChargeLate()].filter((p) => p !== null);
        return problems.length ? problems.join('; ') : null;
      },
      fleet_control_loop: () => jobs.health('fleet.reconcile'),
      monitor: () => fleet.monitor.health(),
      mail_outbox: () => (jobs.handles('mail.send') ? jobs.health() : 'no mail sender registered'),
    },
  });
  const app = createApp(deps, {
    state,
    cache,
    logosDir: path.join(path.dirname(bundledCatalogPath()), 'logos'),
    metrics: fleet.metrics.registry,
    readiness,
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      { fetch: app.fetch, hostname: config.host, port: config.port, serverOptions: requestTimeouts },
      () => resolve(s as Server),
    );
    s.once('error', reject);
  });
  if (!config.trustProxy) capConnectionsPerAddress(server);

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const wsHandler = applyWSSHandler({
    wss,
    router: appRouter,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    experimental_encoder: liveEncoder,
    // The same builder as HTTP: the upgrade request's headers (X-Forwarded-For under
    // TRUST_PROXY) and the token from connectionParams.
    createContext: ({ req, res, info }): Context => {
      const token = info.connectionParams?.token;
      const ctx = createContext(deps, {
        remoteAddress: req.socket.remoteAddress,
        header: (name) => [req.headers[name]].flat()[0],
        token: typeof token === 'string' ? token : null,
        requestId: flatString(`ws-${randomUUID()}`),
        live: true,
      });
      bindLiveSocket(ctx.req, res);
      return ctx;
    },
  });
  registerBusinessMetrics(fleet.metrics.registry, {
    db,
    liveConnections: () => wss.clients.size,
    liveSubscriptions: () => hub.subscriberCount,
  });
  const gate = socketGate((req) =>
    clientIp(req.socket.remoteAddress, [req.headers['x-forwarded-for']].flat()[0], config.trustProxy),
  );
  server.on('upgrade', (req, socket, head) => {
    // Compared as text: `new URL` throws on a hostile request target, and a throw here
    // would escape the 'upgrade' listener and end the process.
    if ((req.url ?? '').split('?')[0] !== WS_PATH) return socket.destroy();
    if (!usableHost(req.headers.host)) {
      const why = 'The Host header is not a valid host.';
      return void socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: ${why.length}\r\nConnection: close\r\n\r\n${why}`,
      );
    }
    if (!gate.admit(req, socket)) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      frameBudget(ws);
      try {
        // tRPC keeps what it is given here for the socket's life: only what is read (ws-limits.ts).
        wss.emit('connection', ws, upgradeSummary(req));
      } catch (err) {
        // A throw here would leave the 'upgrade' listener and end the process: end this socket only.
        log.warn('live connection refused', { err });
        ws.terminate();
      }
    });
  });

  // Clients that reconnect after this boot replay this and reload to the new build.
  await insertEvent(db, null, 'restarted', {});
  await hub.poke();
  state.ready = true;

  const port = (server.address() as AddressInfo).port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${shownHost}:${port}`;
  log.info('nodekeep listening', { url, data_dir: config.dataDir, mail: mailer.kind });
  // No operator yet: the first-run link, under PUBLIC_URL (this address when PUBLIC_URL is the default with port 0).
  await openSetupLink(db, /:0$/.test(config.publicUrl) ? url : config.publicUrl, log);

  let closing: Promise<void> | undefined;
  const close = (opts: CloseOptions = {}) =>
    (closing ??= (async () => {
      state.ready = false;
      // Nothing of the fleet starts from here, and no new health check. No new
      // connections; requests under way finish (up to HTTP_DRAIN_MS) while live sockets
      // get the reconnect notice and running jobs their deadline.
      const fleetQuiet = fleet.stopping();
      const http = drainHttp(server);
      wsHandler.broadcastReconnectNotification();
      await Promise.all([fleetQuiet, http, closeLiveSockets(wss), jobs.stop()]);
      hub.stop();
      await fleet.stop(opts);
      await mail.stop();
      await db.destroy();
      dataLock.release();
      log.info('nodekeep stopped', { daemons: opts.keepDaemons ? 'left running' : 'stopped' });
    })());
  return { url, port, deps, fleet, jobs, close };
}
