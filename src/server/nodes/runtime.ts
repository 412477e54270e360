import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DB } from '../db/open';
import type { Host, Masternode } from '../db/schema';
import type { EventHub } from '../events/hub';
import type { BurnResult, DaemonAccess, FleetAccess } from '../fleet/access';
import type { CloseOptions } from '../fleet/engine';
import { EngineRegistry, type DockerEngineFactory } from '../fleet/engines/registry';
import { fleetMetrics } from '../fleet/metrics';
import type { DaemonFacts } from '../fleet/daemon-facts';
import { checkCoin, type CheckOutcome } from './coin-check';
import { recheckChangedPrograms } from './coin-checks';
import type { DaemonProfile } from '../fleet/profiles';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import type { SecretBox } from '../secrets/box';
import { checkBurn, daemonLog, daemonOf, stopNode } from './daemon-access';
import type { FleetDeps } from './fleet-deps';
import { listExistingNodes, listHosts, listLiveNodes } from './fleet-queries';
import { checkHostDisks } from './host-check';
import { ensureLocalHost, placedHere } from './local-host';
import { Monitor, type MonitorOptions } from './monitor';
import { reconcilePass } from './reconcile';
import { markSimulated } from './repository';
import { setOperatorKey } from './set-operator-key';
import { runNodeOnVersion } from './version-change';

/** How long a stop waits for health checks under way. */
const MONITOR_STOP_WAIT_MS = 1_000;

export type FleetOptions = {
  dataDir: string;
  /** Opens the keys real daemons run with (sealed in nodes.secrets), and seals the key quick setup gives. */
  secrets?: Pick<SecretBox, 'open' | 'seal'>;
  /** How long a daemon restarted with a new operator key has to answer again (default 60 s). */
  keyRestartTimeoutMs?: number;
  /** How long an upgraded daemon has to answer on its new version, synced (ROLLOUT_HEALTH_SECONDS, default 10 min). */
  upgradeHealthTimeoutMs?: number;
  profiles: Record<string, DaemonProfile>;
  /** What each profile's source says (catalog/daemon-facts); none: no profile counts as verified. */
  facts?: Record<string, DaemonFacts>;
  monitor: MonitorOptions;
  /** Runs the control loop (the recurring job `fleet.reconcile`). */
  jobs: JobRunner;
  dockerFactory?: DockerEngineFactory<Host>;
  reconcileMs?: number;
  /** One pass may create containers (image pulls); the runner gives up on it after this long. */
  reconcileDeadlineMs?: number;
  /** FLEET_SIMULATOR: may the simulator serve nodes? */
  simulator?: boolean;
  /** FLEET_LOCAL_IPV4/IPV6. */
  localAddress?: { ipv4: string | null; ipv6: string | null };
  /** The host check (HOST_CHECK_SECONDS, HOST_DISK_MIN_FREE_GB); default every minute, 20 GB. */
  hostCheck?: { everyMs: number; minFreeBytes: number };
};

/**
 * The fleet inside the server: a control loop that makes the engines match the nodes'
 * lifecycle states (reconcile.ts: place, provision, destroy, restart), and the monitor
 * that reads every node's status. The loop is a recurring job every second: a read while
 * there is nothing to do, so rows the CLI writes are acted on within a second at no cost
 * when idle. This class only wires the steps and starts and stops them.
 */
export class Fleet implements FleetAccess {
  readonly engines: EngineRegistry<Host>;
  readonly metrics = fleetMetrics();
  readonly monitor: Monitor;
  private stopped = false;
  private readonly deps: FleetDeps;

  constructor(
    private readonly db: DB,
    private readonly hub: EventHub,
    private readonly log: Logger,
    private readonly opts: FleetOptions,
  ) {
    this.engines = new EngineRegistry<Host>(opts.dataDir, log, opts.dockerFactory, opts.simulator ?? false);
    this.monitor = new Monitor(db, this.engines, opts.profiles, hub, this.metrics, log, opts.monitor);
    this.deps = {
      db,
      hub,
      log,
      engines: this.engines,
      metrics: this.metrics,
      monitor: this.monitor,
      profiles: opts.profiles,
      secrets: opts.secrets,
      simulator: opts.simulator ?? false,
      fleetDir: path.join(opts.dataDir, 'fleet'),
      inProgress: new Set(),
      reconcile: () => this.reconcile(),
    };
  }

  get profiles() {
    return this.opts.profiles;
  }

  get facts(): Record<string, DaemonFacts> {
    return this.opts.facts ?? {};
  }

  get simulator(): boolean {
    return this.opts.simulator ?? false;
  }

  async start(): Promise<void> {
    await ensureLocalHost(this.db, this.log, this.opts.localAddress ?? { ipv4: null, ipv6: null });
    await markSimulated(
      this.db,
      Object.entries(this.opts.profiles)
        .filter(([, p]) => p.run === 'simulator')
        .map(([id]) => id),
    );
    // A restore of an older backup leaves the engine the nodes made (or placed) since: not the
    // database's any more, they would run on unwatched and uncharged, holding their ports.
    const localId = (await listHosts(this.db)).find((h) => h.engine === 'local')?.id;
    const { setAside, back } = await this.engines.local.setAside(placedHere(await listExistingNodes(this.db), localId));
    if (setAside.length)
      this.log.warn(
        'fleet: stopped the local daemons of nodes the database does not know or has not placed; their files are kept',
        { nodes: setAside },
      );
    if (back.length)
      this.log.info('fleet: local daemons set aside before run again: the database has their nodes again', {
        nodes: back,
      });
    const resumed = await this.engines.local.resume();
    if (resumed.adopted.length || resumed.started.length)
      this.log.info('fleet: local daemons resumed', {
        adopted: resumed.adopted.length,
        started: resumed.started.length,
      });
    this.monitor.start(await listLiveNodes(this.db));
    this.opts.jobs.every('fleet.reconcile', {
      everyMs: this.opts.reconcileMs ?? 1000,
      deadlineMs: this.opts.reconcileDeadlineMs ?? 5 * 60_000,
      run: () => this.pass(),
    });
    const hostCheck = this.opts.hostCheck ?? { everyMs: 60_000, minFreeBytes: 20e9 };
    this.opts.jobs.every('fleet.hosts', {
      everyMs: hostCheck.everyMs,
      atStart: true,
      deadlineMs: 30_000,
      run: async () => {
        if (await checkHostDisks(this.db, this.engines, this.log, { minFreeBytes: hostCheck.minFreeBytes })) {
          void this.hub.poke();
          void this.opts.jobs.poke(); // the operators' mail
        }
        if ((await recheckChangedPrograms(this.db, this.engines, this.opts.profiles, this.log)).length)
          void this.opts.jobs.poke();
      },
    });
    await this.reconcile();
  }

  daemonOf(node: Masternode): Promise<DaemonAccess | null> {
    return daemonOf(this.deps, node);
  }

  checkBurn(coinId: string, txid: string): Promise<BurnResult> {
    return checkBurn(this.deps, coinId, txid);
  }

  daemonLog(node: Masternode, tail: number): Promise<string | null> {
    return daemonLog(this.deps, node, tail);
  }

  stopNode(node: Masternode): Promise<void> {
    return stopNode(this.deps, node);
  }

  /** `coins check`: the coin's daemon tried on a host (nodes/coin-check.ts). */
  checkCoin(coinId: string, hostName: string | null, startTimeoutMs?: number): Promise<CheckOutcome> {
    return checkCoin({ ...this.deps, facts: this.facts, startTimeoutMs }, coinId, hostName);
  }

  setOperatorKey(node: Masternode, secret: string): Promise<void> {
    return setOperatorKey(this.deps, this.opts.keyRestartTimeoutMs ?? 60_000, node, secret);
  }

  simulateDeposit(node: Masternode): Promise<void> {
    return this.engines.local.simulatorDeposit(node.mn_id);
  }

  runNodeOnVersion(node: Masternode, version: string | null, back: string | null): Promise<void> {
    return runNodeOnVersion(this.deps, this.opts.upgradeHealthTimeoutMs ?? 600_000, node, version, back);
  }

  /**
   * The first step of a stop: no daemon starts or restarts from now on, and no new
   * health check begins. Resolves when the checks under way are over, or after
   * MONITOR_STOP_WAIT_MS (a check of an unanswering daemon takes up to three RPC
   * timeouts; what it would record is checked again at the next start).
   */
  stopping(): Promise<void> {
    this.engines.local.stopRestarting();
    return Promise.race([this.monitor.stop(), sleep(MONITOR_STOP_WAIT_MS)]);
  }

  /** Call after the job runner stopped (which waits for a pass in flight). */
  async stop(opts: CloseOptions = {}): Promise<void> {
    this.stopped = true;
    await this.stopping();
    await this.engines.close(opts);
  }

  /** One pass of the control loop now, or one more after the current one (single flight). */
  reconcile(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.opts.jobs.trigger('fleet.reconcile');
  }

  /** The job's run: one pass of the control loop (reconcile.ts). */
  private pass(): Promise<void> {
    return reconcilePass(this.deps);
  }
}
