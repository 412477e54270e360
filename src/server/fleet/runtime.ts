import os from 'node:os';
import path from 'node:path';
import { findCoin } from '../coins/queries';
import type { DB } from '../db/open';
import type { Host, Masternode } from '../db/schema';
import { insertEvent } from '../events/queries';
import type { EventHub } from '../events/hub';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../log';
import { logOperatorAction } from '../operator/settings';
import { EngineRegistry, type DockerEngineFactory } from './engines/registry';
import { fleetMetrics } from './metrics';
import { Monitor, type MonitorOptions } from './monitor';
import type { DaemonProfile } from './profiles';
import { insertHost, listHosts, listLiveNodes, markSimulated, nodesByStatus, nodesNeedingWork, updateHost, updateNode } from './queries';
import { buildSpec } from './spec';

/**
 * The local host's public addresses: FLEET_LOCAL_IPV4/IPV6 when the operator set them,
 * else the first IPv4/IPv6 address of this machine's interfaces (a guess: behind NAT it
 * is not what customers can reach, hence the settings).
 */
function localAddresses(configured: { ipv4: string | null; ipv6: string | null }): { ipv4: string; ipv6: string | null } {
  const all = Object.values(os.networkInterfaces()).flat().filter((a) => a && !a.internal);
  return {
    ipv4: configured.ipv4 ?? all.find((a) => a!.family === 'IPv4')?.address ?? '127.0.0.1',
    ipv6: configured.ipv6 ?? all.find((a) => a!.family === 'IPv6' && !a!.address.startsWith('fe80'))?.address ?? null,
  };
}

export type FleetOptions = {
  dataDir: string;
  profiles: Record<string, DaemonProfile>;
  monitor: MonitorOptions;
  /** Runs the control loop (the recurring job `fleet.reconcile`). */
  jobs: JobRunner;
  dockerFactory?: DockerEngineFactory;
  reconcileMs?: number;
  /** One pass may create containers (image pulls); the runner gives up on it after this long. */
  reconcileDeadlineMs?: number;
  /** FLEET_SIMULATOR: may the simulator serve nodes? */
  simulator?: boolean;
  /** FLEET_LOCAL_IPV4/IPV6. */
  localAddress?: { ipv4: string | null; ipv6: string | null };
};

/**
 * The fleet inside the server: a control loop that makes the engines match the
 * masternodes table (start what was requested, destroy what was deleted, restart on
 * request), and the monitor that reads every node's status. The loop is a recurring
 * job every second: a read while there is nothing to do, so rows the CLI writes are
 * acted on within a second at no cost when idle.
 */
export class Fleet {
  readonly engines: EngineRegistry;
  readonly metrics = fleetMetrics();
  readonly monitor: Monitor;
  private stopped = false;
  /**
   * Nodes an engine call is under way for. Engine calls cannot be aborted: a pass given
   * up on at its deadline may still be working, and the next pass must not touch its nodes.
   */
  private inProgress = new Set<string>();

  constructor(
    private readonly db: DB,
    private readonly hub: EventHub,
    private readonly log: Logger,
    private readonly opts: FleetOptions,
  ) {
    this.engines = new EngineRegistry(opts.dataDir, log, opts.dockerFactory, opts.simulator ?? false);
    this.monitor = new Monitor(db, this.engines, opts.profiles, hub, this.metrics, log, opts.monitor);
  }

  get profiles() {
    return this.opts.profiles;
  }

  get simulator(): boolean {
    return this.opts.simulator ?? false;
  }

  async start(): Promise<void> {
    const configured = this.opts.localAddress ?? { ipv4: null, ipv6: null };
    const hosts = await listHosts(this.db);
    const local = hosts.find((h) => h.engine === 'local');
    if (hosts.length === 0) {
      const addr = localAddresses(configured);
      await insertHost(this.db, { name: 'local', engine: 'local', url: null, ipv4: addr.ipv4, ipv6: addr.ipv6, dedicated_slots: 100, cloud_slots: 1000, state: 'active', last_error: null });
      this.log.info('fleet: local host added', { ipv4: addr.ipv4, configured: configured.ipv4 !== null });
    } else if (local && (configured.ipv4 !== null || configured.ipv6 !== null)) {
      // The operator's setting wins over what an earlier start detected.
      const addr = localAddresses(configured);
      if (addr.ipv4 !== local.ipv4 || addr.ipv6 !== local.ipv6) {
        await updateHost(this.db, local.id, { ipv4: addr.ipv4, ipv6: addr.ipv6 });
        this.log.info('fleet: local host address set from FLEET_LOCAL_IPV4/IPV6', { ipv4: addr.ipv4, ipv6: addr.ipv6 });
      }
    }
    await markSimulated(this.db, Object.entries(this.opts.profiles).filter(([, p]) => p.run === 'simulator').map(([id]) => id));
    const resumed = await this.engines.local.resume();
    if (resumed.adopted.length || resumed.started.length) this.log.info('fleet: local daemons resumed', { adopted: resumed.adopted.length, started: resumed.started.length });
    this.monitor.start(await listLiveNodes(this.db));
    this.opts.jobs.every('fleet.reconcile', { everyMs: this.opts.reconcileMs ?? 1000, deadlineMs: this.opts.reconcileDeadlineMs ?? 5 * 60_000, run: () => this.pass() });
    await this.reconcile();
  }

  /** Call after the job runner stopped (which waits for a pass in flight). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.monitor.stop();
    await this.engines.close();
  }

  /** One pass of the control loop now, or one more after the current one (single flight). */
  reconcile(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.opts.jobs.trigger('fleet.reconcile');
  }

  private async pass() {
    const hosts = new Map((await listHosts(this.db)).map((h) => [h.id, h]));
    const todo = (await nodesNeedingWork(this.db)).filter((n) => !this.inProgress.has(n.mn_id));
    await Promise.all(
      todo.map(async (n) => {
        this.inProgress.add(n.mn_id);
        try {
          await this.reconcileNode(n, n.host_id === null ? undefined : hosts.get(n.host_id));
        } finally {
          this.inProgress.delete(n.mn_id);
        }
      }),
    );
    await this.updateGauges();
  }

  private async reconcileNode(node: Masternode, host: Host | undefined) {
    if (!host) {
      await updateNode(this.db, node.id, { status: 'error', last_error: 'Its host was removed from the fleet.', provisioned_at: node.provisioned_at ?? Date.now(), destroyed_at: node.deleted_at ? Date.now() : null });
      return;
    }
    const engine = this.engines.for(host);
    try {
      if (node.deleted_at !== null) {
        await engine.destroy(node.mn_id);
        await updateNode(this.db, node.id, { destroyed_at: Date.now() });
        this.monitor.untrack(node.mn_id);
        this.log.info('node destroyed', { node: node.mn_id, host: host.name });
      } else if (node.provisioned_at === null) {
        await this.provision(node, host);
      } else {
        await engine.stop(node.mn_id);
        await engine.start(node.mn_id);
        await updateNode(this.db, node.id, { restarted_at: Date.now() });
        this.monitor.track(node.mn_id);
        this.log.info('node restarted', { node: node.mn_id, host: host.name });
      }
    } catch (err) {
      const message = (err as Error).message;
      this.metrics.engineErrors.inc({ host: host.name, op: node.deleted_at ? 'destroy' : node.provisioned_at ? 'restart' : 'create' });
      this.log.error('fleet engine operation failed', { node: node.mn_id, host: host.name, error: message });
      await this.db.transaction().execute(async (trx) => {
        await updateNode(trx, node.id, {
          last_error: message,
          ...(node.provisioned_at === null && node.deleted_at === null ? { status: 'error', provisioned_at: Date.now() } : {}),
          ...(node.deleted_at !== null ? { destroyed_at: Date.now() } : {}),
          ...(node.restart_requested_at ? { restarted_at: Date.now() } : {}),
        });
        await logOperatorAction(trx, 'engine error', { node: node.mn_id, host: host.name, error: message });
        await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
      });
      void this.hub.poke();
    }
  }

  private async provision(node: Masternode, host: Host) {
    const coin = await findCoin(this.db, node.coin_id);
    const profile = this.opts.profiles[node.daemon_profile ?? ''];
    if (!coin || !profile) throw new Error(`node ${node.mn_id}: unknown coin or daemon profile ${node.daemon_profile}`);
    const engine = this.engines.for(host);
    const { spec, ports } = await buildSpec(node, coin, profile, host, path.join(this.opts.dataDir, 'fleet'));
    await engine.create(spec);
    await engine.start(node.mn_id);
    await this.db.transaction().execute(async (trx) => {
      await updateNode(trx, node.id, { provisioned_at: Date.now(), ports: JSON.stringify(ports), last_error: null });
      await insertEvent(trx, node.user_id, 'server_created', { server_id: node.mn_id });
      await insertEvent(trx, node.user_id, 'refresh_queue', {});
      await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
    });
    void this.hub.poke();
    this.monitor.track(node.mn_id);
    this.log.info('node started on its engine', { node: node.mn_id, host: host.name, engine: engine.kind, profile: node.daemon_profile, simulated: profile.run === 'simulator' });
  }

  private async updateGauges() {
    const rows = await nodesByStatus(this.db);
    // Reset and refill without an await in between, so a scrape never sees the gauge empty.
    this.metrics.nodes.reset();
    for (const r of rows) this.metrics.nodes.set({ status: r.status, coin: r.coin_id }, Number(r.n));
  }
}
