import { familyOf } from '../../shared/families';
import os from 'node:os';
import path from 'node:path';
import { findCoin } from '../coins/queries';
import type { DB } from '../db/open';
import type { CoinRecord, Host, Masternode } from '../db/schema';
import { insertEvent } from '../events/queries';
import type { EventHub } from '../events/hub';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import { setTimeout as sleep } from 'node:timers/promises';
import { raise } from '../notifications/raise';
import { logOperatorAction, systemActor } from '../operator/log';
import { FleetActionError, type BurnResult, type DaemonAccess, type FleetAccess } from '../fleet/access';
import { BURN_MESSAGES, lookUpBurn } from '../fleet/burn-check';
import type { CloseOptions, RpcEndpoint } from '../fleet/engine';
import { PermanentEngineError } from '../fleet/engine';
import { EngineRegistry, type DockerEngineFactory } from '../fleet/engines/registry';
import { fleetMetrics } from '../fleet/metrics';
import { checkHostDisks } from './host-check';
import { Monitor, type MonitorOptions } from './monitor';
import type { DaemonProfile } from '../fleet/profiles';
import {
  hostUsage,
  insertHost,
  insertPlacement,
  placedAddresses,
  listExistingNodes,
  listHosts,
  listLiveNodes,
  nodesByStatus,
  nodesNeedingWork,
  updateHost,
  updatePlacement,
} from './fleet-queries';
import { rpcAuth } from '../fleet/observe';
import { pairsInUse, pickHost } from './placement';
import { FLEET_FULL, profileFor } from './lifecycle';
import { findLiveNodeOfCoin, markSimulated, transition, updateNodeRow } from './repository';
import { withOperatorSecret } from './node-secrets';
import { KEY_MESSAGES, restartWithOperatorKey } from './operator-key-restart';
import { operatorKeyFor } from './operator-key';
import { openValidatorRun, withKeymanagerToken } from './node-secrets';
import type { SecretBox } from '../secrets/box';
import { ENGINE_RETRIES, engineRetryDelayMs } from '../../shared/lifecycle';
import { coinDetails } from '../coins/queries';
import { randomBytes } from 'node:crypto';
import { buildSpec } from './daemon-spec';
import { canChangeVersion } from '../fleet/daemon-version';
import { coinDaemonVersion, placementVersion } from './version-queries';
import { untilHealthyOn } from '../fleet/upgrade-health';

/**
 * The local host's public addresses: FLEET_LOCAL_IPV4/IPV6 when the operator set them,
 * else the first IPv4/IPv6 address of this machine's interfaces (a guess: behind NAT it
 * is not what customers can reach, hence the settings).
 */
function localAddresses(
  configured: { ipv4: string | null; ipv6: string | null },
  log: Logger,
  earlier: { ipv4: string | null; ipv6: string | null } | null = null,
): { ipv4: string; ipv6: string | null } {
  const all = configured.ipv4 && configured.ipv6 ? [] : interfaceAddresses(log);
  return {
    ipv4: configured.ipv4 ?? all.find((a) => a.family === 'IPv4')?.address ?? earlier?.ipv4 ?? '127.0.0.1',
    ipv6:
      configured.ipv6 ??
      all.find((a) => a.family === 'IPv6' && !a.address.startsWith('fe80'))?.address ??
      earlier?.ipv6 ??
      null,
  };
}

/** How long a stop waits for health checks under way. */
const MONITOR_STOP_WAIT_MS = 1_000;

/**
 * Listing interfaces needs a netlink socket, which a sandbox may forbid (a systemd unit's
 * RestrictAddressFamilies without AF_NETLINK made the start fail): then none are known,
 * and FLEET_LOCAL_IPV4/IPV6 say what to show.
 */
function interfaceAddresses(log: Logger): os.NetworkInterfaceInfo[] {
  try {
    return Object.values(os.networkInterfaces())
      .flat()
      .filter((a): a is os.NetworkInterfaceInfo => !!a && !a.internal);
  } catch (err) {
    log.warn(
      'cannot list network interfaces; set FLEET_LOCAL_IPV4 (and FLEET_LOCAL_IPV6) to the address customers reach this machine on',
      { error: (err as Error).message },
    );
    return [];
  }
}

export type FleetOptions = {
  dataDir: string;
  /** Opens the keys real daemons run with (sealed in nodes.secrets), and seals the key quick setup gives. */
  secrets?: Pick<SecretBox, 'open' | 'seal'>;
  /** How long a daemon restarted with a new operator key has to answer again (default 60 s). */
  keyRestartTimeoutMs?: number;
  /** How long an upgraded daemon has to answer on its new version, synced (ROLLOUT_HEALTH_SECONDS, default 10 min). */
  upgradeHealthTimeoutMs?: number;
  profiles: Record<string, DaemonProfile>;
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
 * lifecycle states (place and start what was requested, destroy what is being deleted,
 * restart on request), and the monitor that reads every node's status. The loop is a recurring
 * job every second: a read while there is nothing to do, so rows the CLI writes are
 * acted on within a second at no cost when idle.
 */
/** The control loop's own lines in the operator log. */
const FLEET = systemActor('fleet');

/**
 * What the local engine may run (LocalEngine.setAside): each node the database has, placed
 * on this machine or not. A node it has on another host must not run here too (its keys
 * would run twice); one not placed yet may get other ports.
 */
export function placedHere(
  nodes: Array<Pick<Masternode, 'mn_id' | 'state' | 'host_id'>>,
  localHostId: number | undefined,
): Map<string, { placed: boolean; live: boolean }> {
  return new Map(
    nodes.map((n) => [
      n.mn_id,
      {
        placed:
          localHostId !== undefined && n.host_id === localHostId && n.state !== 'requested' && n.state !== 'placing',
        live: n.state === 'live',
      },
    ]),
  );
}

export class Fleet implements FleetAccess {
  readonly engines: EngineRegistry<Host>;
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
    this.engines = new EngineRegistry<Host>(opts.dataDir, log, opts.dockerFactory, opts.simulator ?? false);
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
      const addr = localAddresses(configured, this.log);
      await insertHost(this.db, {
        name: 'local',
        engine: 'local',
        url: null,
        ipv4: addr.ipv4,
        ipv6: addr.ipv6,
        dedicated_slots: 100,
        cloud_slots: 1000,
        state: 'active',
        last_error: null,
      });
      this.log.info('fleet: local host added', { ipv4: addr.ipv4, configured: configured.ipv4 !== null });
    } else if (local && (configured.ipv4 !== null || configured.ipv6 !== null)) {
      // The operator's setting wins over what an earlier start detected.
      const addr = localAddresses(configured, this.log, local);
      if (addr.ipv4 !== local.ipv4 || addr.ipv6 !== local.ipv6) {
        await updateHost(this.db, local.id, { ipv4: addr.ipv4, ipv6: addr.ipv6 });
        this.log.info('fleet: local host address set from FLEET_LOCAL_IPV4/IPV6', { ipv4: addr.ipv4, ipv6: addr.ipv6 });
      }
    }
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
      },
    });
    await this.reconcile();
  }

  async daemonOf(node: Masternode): Promise<DaemonAccess | null> {
    if (node.state !== 'live' || node.host_id === null) return null;
    const profile = this.opts.profiles[node.daemon_profile ?? ''];
    const host = (await listHosts(this.db)).find((h) => h.id === node.host_id);
    if (!profile || !host) return null;
    const simulated = profile.run === 'simulator';
    const engine = this.engines.for(host);
    const endpoint = await engine.rpcEndpoint(node.mn_id);
    const auth = rpcAuth(node, simulated);
    const vcPort = profile.run === 'binary' ? profile.validator_client?.keymanager_port : undefined;
    const keymanager =
      simulated && profile.rpc === 'evm'
        ? async () => endpoint
        : vcPort
          ? () => engine.rpcEndpoint(node.mn_id, vcPort)
          : undefined;
    return { endpoint, auth, profile, simulated, ...(keymanager ? { keymanager } : {}) };
  }

  /**
   * SIN's burn check: on the simulator's chain when the coin runs there, else on any live
   * node's daemon of the coin (real daemons index transactions: txindex=1).
   */
  async checkBurn(coinId: string, txid: string): Promise<BurnResult> {
    const coin = await findCoin(this.db, coinId);
    if (!coin) return { ok: false, message: BURN_MESSAGES.unavailable };
    const { profile } = profileFor(this.opts.profiles, coin.family, coinDetails(coin).daemon);
    let rpc: { endpoint: RpcEndpoint; auth?: { user: string; password: string } } | null = null;
    try {
      if (profile.run === 'simulator')
        rpc = this.simulator ? { endpoint: await this.engines.local.simulatorCoinEndpoint(coin.id) } : null;
      else {
        const node = await findLiveNodeOfCoin(this.db, coin.id);
        rpc = node ? await this.daemonOf(node) : null;
      }
    } catch (err) {
      this.log.warn('burn check: no daemon reachable', { coin: coin.id, error: (err as Error).message });
    }
    if (!rpc) return { ok: false, message: BURN_MESSAGES.unavailable };
    return lookUpBurn({ ...rpc, timeoutMs: 5_000 }, txid);
  }

  async stopNode(node: Masternode): Promise<void> {
    const host = node.host_id === null ? undefined : (await listHosts(this.db)).find((h) => h.id === node.host_id);
    if (!host || node.destroyed_at !== null) return;
    const engine = this.engines.for(host);
    try {
      await engine.stop(node.mn_id);
    } catch (err) {
      // A node being deleted may be gone already: the control loop stopped it before it
      // removed it, which is what the caller asked for.
      const now = await engine.inspect(node.mn_id).catch(() => null);
      if (now?.state !== 'missing') throw err;
      this.log.info('node already stopped and removed', { node: node.mn_id, host: host.name });
      return;
    }
    this.log.info('node stopped', { node: node.mn_id, host: host.name });
  }

  async setOperatorKey(node: Masternode, secret: string): Promise<void> {
    const profile = this.opts.profiles[node.daemon_profile ?? ''];
    const host = node.host_id === null ? undefined : (await listHosts(this.db)).find((h) => h.id === node.host_id);
    const coin = await findCoin(this.db, node.coin_id);
    if (!profile || !host || !coin || node.state !== 'live')
      throw new FleetActionError(KEY_MESSAGES.unsupported, 'unsupported');
    // The control loop leaves nodes in progress alone, and this waits for none of its work.
    if (this.inProgress.has(node.mn_id)) throw new FleetActionError(KEY_MESSAGES.busy, 'busy');
    this.inProgress.add(node.mn_id);
    try {
      if (profile.run === 'simulator') return await this.simulatorOperatorKey(node, secret);
      const deps = {
        db: this.db,
        log: this.log,
        box: this.opts.secrets,
        fleetDir: path.join(this.opts.dataDir, 'fleet'),
        backTimeoutMs: this.opts.keyRestartTimeoutMs ?? 60_000,
      };
      await restartWithOperatorKey(deps, node, coin, profile, host, this.engines.for(host), secret);
    } finally {
      this.inProgress.delete(node.mn_id);
    }
  }

  /** The simulator's stand-in for a restart with the key in the config: its admin API. */
  private async simulatorOperatorKey(node: Masternode, secret: string) {
    const box = this.opts.secrets;
    if (box) await updateNodeRow(this.db, node.id, { secrets: withOperatorSecret(box, node, secret) });
    try {
      await this.engines.local.simulatorOperatorKey(node.mn_id, secret);
    } catch (err) {
      if (box) await updateNodeRow(this.db, node.id, { secrets: node.secrets });
      this.log.warn('simulated node did not take its operator key', {
        node: node.mn_id,
        error: (err as Error).message,
      });
      throw new FleetActionError(KEY_MESSAGES.failed, 'failed');
    }
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

  private async pass() {
    const hosts = new Map((await listHosts(this.db)).map((h) => [h.id, h]));
    const todo = (await nodesNeedingWork(this.db, Date.now())).filter((n) => !this.inProgress.has(n.mn_id));
    // Placement reserves slots and addresses: one node at a time, in creation order.
    for (const n of todo.filter((n) => n.state === 'requested')) await this.place(n);
    const rest = todo.filter((n) => n.state !== 'requested');
    await Promise.all(
      rest.map(async (n) => {
        this.inProgress.add(n.mn_id);
        try {
          await this.reconcileNode(n, n.host_id === null ? undefined : hosts.get(n.host_id));
        } finally {
          this.inProgress.delete(n.mn_id);
        }
      }),
    );
    // Placed nodes are provisioned on the next pass, at once.
    if (todo.some((n) => n.state === 'requested')) void this.reconcile();
    await this.updateGauges();
  }

  /** requested → placing → provisioning on a host with a free slot and address:port, or failed. */
  private async place(node: Masternode) {
    const coin = await findCoin(this.db, node.coin_id);
    const placed = await this.db.transaction().execute(async (trx) => {
      if ((await transition(trx, node.id, 'place')) !== 'placing') return null;
      const { id: profileId, profile } = profileFor(
        this.opts.profiles,
        coin?.family ?? 'classic',
        coin ? coinDetails(coin).daemon : undefined,
      );
      const placed = pickHost(await listHosts(trx), await hostUsage(trx), node.package, profile, {
        inUse: pairsInUse(await placedAddresses(trx)),
      });
      if (!placed) {
        await transition(trx, node.id, 'no_capacity', { failed_reason: FLEET_FULL });
        await insertEvent(trx, node.user_id, 'refresh_queue', {});
        await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
        return false;
      }
      await insertPlacement(trx, {
        node_id: node.id,
        host_id: placed.host.id,
        daemon_profile: profileId,
        rpc_user: `nk${randomBytes(4).toString('hex')}`,
        rpc_password: randomBytes(18).toString('base64url'),
        server_ip: placed.ipv4,
        server_ip6: placed.ipv6,
        p2p_port: placed.p2pPort,
      });
      await transition(trx, node.id, 'placed');
      await insertEvent(trx, node.user_id, 'refresh_queue', {});
      return true;
    });
    void this.hub.poke();
    if (placed === false) {
      this.metrics.engineErrors.inc({ host: 'none', op: 'place' });
      this.log.warn('fleet full: no host can take the node', {
        node: node.mn_id,
        coin: node.coin_id,
        plan: node.package,
      });
    }
  }

  private async reconcileNode(node: Masternode, host: Host | undefined) {
    if (!host) {
      if (node.state === 'deleting') {
        await this.db.transaction().execute(async (trx) => {
          await updatePlacement(trx, node.id, { destroyed_at: Date.now() });
          await transition(trx, node.id, 'destroyed');
        });
      } else if (node.state === 'provisioning') {
        await this.giveUp(node, 'Its host was removed from the fleet.');
      } else {
        await updatePlacement(this.db, node.id, {
          last_error: 'Its host was removed from the fleet.',
          restarted_at: Date.now(),
        });
      }
      return;
    }
    const engine = this.engines.for(host);
    try {
      if (node.state === 'deleting') {
        await engine.destroy(node.mn_id);
        await this.db.transaction().execute(async (trx) => {
          await updatePlacement(trx, node.id, { destroyed_at: Date.now() });
          await transition(trx, node.id, 'destroyed');
        });
        this.monitor.untrack(node.mn_id);
        this.log.info('node destroyed', { node: node.mn_id, host: host.name });
      } else if (node.state === 'provisioning') {
        await this.provision(node, host);
      } else {
        await engine.stop(node.mn_id);
        await engine.start(node.mn_id);
        await updatePlacement(this.db, node.id, { restarted_at: Date.now() });
        this.monitor.track(node.mn_id);
        this.log.info('node restarted', { node: node.mn_id, host: host.name });
      }
    } catch (err) {
      const message = (err as Error).message;
      const op = node.state === 'deleting' ? 'destroy' : node.state === 'provisioning' ? 'create' : 'restart';
      this.metrics.engineErrors.inc({ host: host.name, op });
      this.log.error('fleet engine operation failed', {
        node: node.mn_id,
        host: host.name,
        op,
        attempt: node.attempts + 1,
        error: message,
      });
      if (op === 'create') return this.retryOrFail(node, host, message, err instanceof PermanentEngineError);
      const attempts = node.attempts + 1;
      await this.db.transaction().execute(async (trx) => {
        if (op === 'destroy' && attempts < ENGINE_RETRIES) {
          // Still deleting: a daemon that may still run (a validator still signing) is not
          // written off on the first failure; tried again after a backoff.
          await updatePlacement(trx, node.id, {
            attempts,
            last_error: message,
            next_attempt_at: Date.now() + engineRetryDelayMs(attempts),
          });
        } else if (op === 'destroy') {
          // The operator is told (engine error below); the node is gone for its owner.
          await updatePlacement(trx, node.id, { last_error: message, destroyed_at: Date.now() });
          await transition(trx, node.id, 'destroyed');
        } else {
          await updatePlacement(trx, node.id, { last_error: message, restarted_at: Date.now() });
        }
        await logOperatorAction(trx, FLEET, 'engine error', { node: node.mn_id, host: host.name, op, error: message });
        await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
      });
      void this.hub.poke();
    }
  }

  /** An engine failure on create: try again after a backoff, or fail the node with the reason. */
  private async retryOrFail(node: Masternode, host: Host, message: string, permanent: boolean) {
    const attempts = node.attempts + 1;
    if (attempts >= ENGINE_RETRIES || permanent) {
      await this.engines
        .for(host)
        .destroy(node.mn_id)
        .catch(() => {});
      return this.giveUp(node, `The node could not be started on its server (${message}).`, attempts);
    }
    await this.db.transaction().execute(async (trx) => {
      await updatePlacement(trx, node.id, {
        attempts,
        last_error: message,
        next_attempt_at: Date.now() + engineRetryDelayMs(attempts),
      });
      await transition(trx, node.id, 'engine_retry');
      await logOperatorAction(trx, FLEET, 'engine error', {
        node: node.mn_id,
        host: host.name,
        op: 'create',
        attempt: attempts,
        error: message,
      });
    });
  }

  private async giveUp(node: Masternode, reason: string, attempts = node.attempts) {
    await this.db.transaction().execute(async (trx) => {
      await updatePlacement(trx, node.id, { attempts, last_error: reason, destroyed_at: Date.now() });
      await transition(trx, node.id, 'engine_gave_up', { failed_reason: reason });
      await logOperatorAction(trx, FLEET, 'node failed', { node: node.mn_id, reason });
      await insertEvent(trx, node.user_id, 'refresh_queue', {});
      await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
    });
    void this.hub.poke();
    this.log.warn('node failed', { node: node.mn_id, reason });
  }

  private async provision(given: Masternode, host: Host) {
    let node = given;
    const coin = await findCoin(this.db, node.coin_id);
    const profile = this.opts.profiles[node.daemon_profile ?? ''];
    if (!coin || !profile) throw new Error(`node ${node.mn_id}: unknown coin or daemon profile ${node.daemon_profile}`);
    const engine = this.engines.for(host);
    const operatorKey =
      profile.run === 'binary' && profile.operator_key_option && this.opts.secrets
        ? operatorKeyFor(this.opts.secrets, node, coin.family)
        : null;
    // A validator's client holds its keystore (the simulator stands in for it on simulated nodes).
    const isValidator = familyOf(coin.family).validator && this.opts.secrets;
    const tokenAdded = isValidator ? withKeymanagerToken(this.opts.secrets!, node) : null;
    if (tokenAdded) {
      await updateNodeRow(this.db, node.id, { secrets: tokenAdded });
      node = { ...node, secrets: tokenAdded };
      this.log.info('validator given its Keymanager API token', { node: node.mn_id });
    }
    // The version new nodes of the coin get (a rollout sets it), kept with the placement so
    // a later change of the coin's version never changes this node's without a rollout.
    const version = (await placementVersion(this.db, node.id)) ?? (await coinDaemonVersion(this.db, coin.id));
    const { spec, ports } = await this.specOf(node, host, coin, profile, version, operatorKey);
    if (version) await updatePlacement(this.db, node.id, { daemon_version: version });
    await engine.create(spec);
    await engine.start(node.mn_id);
    const started = await this.db.transaction().execute(async (trx) => {
      // The owner may have deleted it while the engine was creating it: then it is not
      // announced, and the next pass destroys what the engine just started.
      if (!(await transition(trx, node.id, 'started'))) return false;
      await updatePlacement(trx, node.id, {
        provisioned_at: Date.now(),
        ports: JSON.stringify(ports),
        last_error: null,
        next_attempt_at: null,
        attempts: 0,
      });
      await insertEvent(trx, node.user_id, 'server_created', { server_id: node.mn_id });
      await raise(trx, node.user_id, 'node_deployed', { mn_id: node.mn_id, coin: coin.label, alias: node.alias });
      await insertEvent(trx, node.user_id, 'refresh_queue', {});
      await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
      return true;
    });
    if (!started) {
      this.log.info('node deleted while it was starting; destroying it', { node: node.mn_id, host: host.name });
      void this.reconcile();
      return;
    }
    void this.hub.poke();
    this.monitor.track(node.mn_id, false, true);
    this.log.info('node started on its engine', {
      node: node.mn_id,
      host: host.name,
      engine: engine.kind,
      profile: node.daemon_profile,
      simulated: profile.run === 'simulator',
    });
  }

  /**
   * What the engine runs the node with: the profile filled with the node's settings, its
   * operator key and validator keystore, on `version` (the profile's when null). A node
   * provisioned before keeps the ports it has (saved with its placement, or in the
   * engine's record), so config, engine and placement agree.
   */
  private async specOf(
    node: Masternode,
    host: Host,
    coin: CoinRecord,
    profile: DaemonProfile,
    version: string | null,
    operatorKey: string | null,
  ) {
    const validator =
      familyOf(coin.family).validator && this.opts.secrets ? openValidatorRun(this.opts.secrets, node) : null;
    const saved = JSON.parse(node.ports || '{}') as Record<string, number>;
    const known = Object.keys(saved).length ? saved : await this.engines.for(host).portsOf?.(node.mn_id);
    return buildSpec(node, coin, profile, host, path.join(this.opts.dataDir, 'fleet'), {
      operatorKey,
      validator,
      ports: known ?? undefined,
      daemonVersion: version,
    });
  }

  /**
   * One node's daemon upgrade (a rollout's step): the node runs `version` (null: its
   * profile's) from now on,
   * its data kept. Resolves once the daemon answers on that version and is synced;
   * otherwise the node is put back on `back` (its previous version) and this throws with
   * the reason. Refused for a node the control loop is working on, or whose daemon
   * cannot change version where it runs (daemon-version.ts).
   */
  async runNodeOnVersion(node: Masternode, version: string | null, back: string | null): Promise<void> {
    const profile = this.opts.profiles[node.daemon_profile ?? ''];
    const host = node.host_id === null ? undefined : (await listHosts(this.db)).find((h) => h.id === node.host_id);
    const coin = await findCoin(this.db, node.coin_id);
    if (!profile || !host || !coin)
      throw new FleetActionError(`node ${node.mn_id} is not placed on a host`, 'unsupported');
    if (!canChangeVersion(profile, host))
      throw new FleetActionError(
        `node ${node.mn_id}: its daemon (${node.daemon_profile} on ${host.name}) cannot change version there`,
        'unsupported',
      );
    if (this.inProgress.has(node.mn_id))
      throw new FleetActionError(`node ${node.mn_id} is being changed; try again in a minute`, 'busy');
    this.inProgress.add(node.mn_id);
    const engine = this.engines.for(host);
    const operatorKey =
      profile.run === 'binary' && profile.operator_key_option && this.opts.secrets
        ? operatorKeyFor(this.opts.secrets, node, coin.family)
        : null;
    const runOn = async (v: string | null) => {
      await updatePlacement(this.db, node.id, { daemon_version: v });
      await engine.replace((await this.specOf(node, host, coin, profile, v, operatorKey)).spec);
    };
    try {
      await runOn(version);
      await untilHealthyOn(engine, node, profile, version, this.opts.upgradeHealthTimeoutMs ?? 600_000);
      this.log.info('node upgraded', { node: node.mn_id, version });
    } catch (err) {
      const reason = (err as Error).message;
      this.log.warn('node upgrade failed; putting the previous version back', {
        node: node.mn_id,
        version,
        back,
        reason,
      });
      try {
        await runOn(back);
      } catch (again) {
        this.log.error('node could not be put back on its previous version', {
          node: node.mn_id,
          back,
          error: (again as Error).message,
        });
      }
      throw new FleetActionError(reason, 'failed');
    } finally {
      this.inProgress.delete(node.mn_id);
    }
  }

  private async updateGauges() {
    const rows = await nodesByStatus(this.db);
    // Reset and refill without an await in between, so a scrape never sees the gauge empty.
    this.metrics.nodes.reset();
    for (const r of rows) this.metrics.nodes.set({ status: r.status, coin: r.coin_id }, Number(r.n));
  }
}
