import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { createApp, WS_PATH } from './app';
import type { Config } from './config';
import type { AppDeps, Context } from './context';
import { openDatabase, migrateToLatest, type DB } from './db/open';
import { EventHub } from './events/hub';
import { insertEvent } from './events/queries';
import { RateLimiter } from './http/rate-limit';
import { createLogger, type Logger } from './log';
import { MailDispatcher } from './mail/dispatcher';
import { logMailer, smtpMailer } from './mail/mailer';
import { bundledCatalogPath, importCatalog } from './coins/import';
import { ResponseCache } from './http/response-cache';
import { coinGeckoProvider } from './market/coingecko';
import { demoBasesFromCatalog, demoProvider } from './market/demo';
import type { MarketDataProvider } from './market/provider';
import { MarketRefresher } from './market/refresher';
import { dockerEngine } from './fleet/engines/docker';
import { loadProfiles } from './fleet/profiles';
import { Fleet } from './fleet/runtime';
import { appRouter } from './router';

function marketProvider(config: Config, db: DB, log: Logger): MarketDataProvider {
  if (config.marketProvider === 'coingecko') return coinGeckoProvider({ baseUrl: config.marketApiUrl, apiKey: config.marketApiKey || undefined }, log);
  return demoProvider(() => demoBasesFromCatalog(db));
}

export type RunningServer = {
  url: string;
  port: number;
  deps: AppDeps;
  fleet: Fleet;
  close(): Promise<void>;
};

/**
 * Starts the whole platform in this process: database and migrations, mail and
 * event dispatchers, HTTP (Hono) and the websocket endpoint for live events.
 */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const state = { ready: false };
  const db = openDatabase(config.dbFile);
  const applied = await migrateToLatest(db);
  if (applied.length) log.info('migrations applied', { migrations: applied });

  const hub = new EventHub(db, log);
  await hub.start();
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : logMailer(log);
  const mail = new MailDispatcher(db, mailer, log);
  mail.start();

  const catalog = await importCatalog(db, bundledCatalogPath(), 'seed');
  if (catalog.added.length) log.info('catalog coins added', { coins: catalog.added.length });

  const deps: AppDeps = { db, config, log, limiter: new RateLimiter(), hub, mail };
  const cache = new ResponseCache();
  const market = new MarketRefresher(db, marketProvider(config, db, log), log, config.marketRefreshMinutes, config.marketProvider === 'demo' ? Infinity : 6);
  market.onRefreshed = () => {
    cache.clear();
    // Open coin lists and top bars refetch.
    void insertEvent(db, null, 'update_stats', {}).then(() => hub.poke());
  };
  market.start();

  const profiles = loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json'));
  const fleet = new Fleet(db, hub, log, {
    dataDir: config.dataDir,
    profiles,
    monitor: { nodeMs: config.monitorNodeMs, networkMs: config.monitorNetworkMs, concurrency: config.monitorConcurrency, daemonTimeoutMs: 5000 },
    simulator: config.fleetSimulator,
    localAddress: { ipv4: config.fleetLocalIpv4, ipv6: config.fleetLocalIpv6 },
    // A remote host publishes ports on its own address (loopback there is out of our reach);
    // a local socket's host is this machine.
    dockerFactory: (host, l) => dockerEngine({ url: host.url!, hostId: host.name, log: l, bindAddress: host.url!.startsWith('tcp://') ? host.ipv4 : '127.0.0.1' }),
  });
  await fleet.start();

  const app = createApp(deps, { state, cache, logosDir: path.join(path.dirname(bundledCatalogPath()), 'logos'), metrics: fleet.metrics.registry });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s as Server));
    s.once('error', reject);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const wsHandler = applyWSSHandler({
    wss,
    router: appRouter,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    createContext: ({ req, info }): Context => {
      const token = info.connectionParams?.token;
      return {
        ...deps,
        req: { ip: req.socket.remoteAddress ?? 'unknown', userAgent: req.headers['user-agent'] ?? '', requestId: `ws-${Math.random().toString(36).slice(2, 10)}` },
        token: typeof token === 'string' && token ? token : null,
      };
    },
  });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== WS_PATH) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  // Clients that reconnect after this boot replay this and reload to the new build.
  await insertEvent(db, null, 'restarted', {});
  await hub.poke();
  state.ready = true;

  const port = (server.address() as AddressInfo).port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${shownHost}:${port}`;
  log.info('nodekeep listening', { url, data_dir: config.dataDir, mail: mailer.kind });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      state.ready = false;
      wsHandler.broadcastReconnectNotification();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      hub.stop();
      await market.stop();
      await fleet.stop();
      await mail.stop();
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
      log.info('nodekeep stopped');
    })());

  return { url, port, deps, fleet, close };
}
