import { splitNetworkStatus } from '../../shared/node-status';
import { coinDetails, findCoin } from '../coins/catalog';
import type { DB } from '../db/open';
import type { Host, Masternode } from '../db/schema';
import { insertEvent } from '../events/outbox';
import type { EventHub } from '../events/hub';
import type { Logger } from '../kernel/log';
import { DaemonError } from '../fleet/daemons/http';
import type { Observation } from '../fleet/daemons/observation';
import type { EngineRegistry } from '../fleet/engines/registry';
import type { FleetMetrics } from '../fleet/metrics';
import { observe } from '../fleet/observe';
import { OwnerViews } from './owner-view';
import type { DaemonProfile } from '../fleet/profiles';
import { findNode, findSyncRow, listHosts, saveObservation, saveSyncRow, updatePlacement } from './fleet-queries';
import { nextSyncRow, syncProgressOf, syncStalled } from './sync-progress';
import { countCheck } from './uptime-events-queries';
import { registrationCommand } from '../fleet/daemons/monero';
import { productionProfile } from '../fleet/profiles';
import { noteFirstRun, updateNodeRow } from './repository';
import { buildOutputText } from './output-text';
import type { Insertable } from 'kysely';
import type { ObservationsTable } from '../db/schema';
import { nodeStatusFrom } from '../fleet/status-map';
import type { RpcEndpoint } from '../fleet/engine';
import { simulatedBlockTimeS } from '../fleet/simulator/limits';
import { alertsOfCheck } from '../notifications/alerts';
import { paidOfCheck, recordReward } from './rewards';

export type MonitorOptions = {
  /** Node status every this often (spec: 60 s), network status every `networkMs` (15 min). */
  nodeMs: number;
  networkMs: number;
  /** Checks in flight at once: one slow daemon only holds one slot. */
  concurrency: number;
  daemonTimeoutMs: number;
  /** A node is alerted down after failing its checks this long (ALERT_DOWN_SECONDS; 3 minutes). */
  alertDownMs?: number;
  /** A node not yet synced whose blocks have not risen this long is alerted stalled (SYNC_STALL_MINUTES; 60). */
  syncStallMs?: number;
  /** How a daemon is looked at: `observe` (fleet/observe.ts); procedure tests hand in what a daemon would answer. */
  observe?: typeof observe;
};

/**
 * `eager`: a node just started whose daemon has not answered yet is checked every
 * EAGER_MS instead of every `nodeMs`, so its first status and wallet info show within
 * seconds of server_created (for at most EAGER_FOR_MS).
 */
type Slot = { mnId: string; nextNode: number; nextNetwork: number; eagerUntil: number };

export const EAGER_MS = 500;
const EAGER_FOR_MS = 10 * 60_000;

/**
 * Watches every live node: engine state and daemon RPC every `nodeMs` (jittered so
 * checks spread over the interval), network status every `networkMs`. Writes what
 * changed and tells the owner (refresh_masternode, refresh_masternodes, started).
 * A garbage or slow reply makes the node "unknown"; it never stops the loop.
 */
export class Monitor {
  private slots = new Map<string, Slot>();
  private inFlight = 0;
  private stopped = false;
  private checks = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private lastTickAt = 0;
  private hosts = new Map<number, Host>();
  /** Nodes still to be checked in the current pass over all of them, and when it began. */
  private cycle = new Set<string>();
  private cycleStart = Date.now();
  private readonly ownerViews: OwnerViews;

  constructor(
    private readonly db: DB,
    private readonly engines: EngineRegistry<Host>,
    private readonly profiles: Record<string, DaemonProfile>,
    private readonly hub: EventHub,
    private readonly metrics: FleetMetrics,
    private readonly log: Logger,
    private readonly opts: MonitorOptions,
  ) {
    this.ownerViews = new OwnerViews(log, opts.daemonTimeoutMs);
  }

  start(nodes: Masternode[]) {
    for (const n of nodes) this.track(n.mn_id, true);
    this.lastTickAt = Date.now();
    this.timer = setInterval(() => void this.tick(), 200);
    this.timer.unref();
  }

  /** No new checks; resolves when the checks in flight are over (each bounded by the daemon timeout). */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.checks]);
  }

  /**
   * Starts watching a node: at a random point of the first interval (`spread`, at start-up)
   * or at once; a `fresh` node is checked eagerly until its daemon first answers.
   */
  track(mnId: string, spread = false, fresh = false) {
    const now = Date.now();
    const first = spread ? now + Math.random() * Math.min(this.opts.nodeMs, 10_000) : now;
    this.slots.set(mnId, { mnId, nextNode: first, nextNetwork: first, eagerUntil: fresh ? now + EAGER_FOR_MS : 0 });
    if (!spread) queueMicrotask(() => this.pump());
  }

  untrack(mnId: string) {
    this.slots.delete(mnId);
    this.ownerViews.forget(mnId);
    this.cycle.delete(mnId);
  }

  get tracked(): number {
    return this.slots.size;
  }

  private async refreshHosts() {
    this.hosts = new Map((await listHosts(this.db)).map((h) => [h.id, h]));
  }

  /** Whether the loop turns (for /readyz): null when it ticks, else why not. */
  health(now = Date.now()): string | null {
    if (this.stopped) return 'stopped';
    if (!this.timer) return 'not started';
    return now - this.lastTickAt > 10_000 ? `no tick for ${Math.round((now - this.lastTickAt) / 1000)} s` : null;
  }

  private async tick() {
    const now = Date.now();
    this.lastTickAt = now;
    if (this.hosts.size === 0 || now % 5000 < 200) await this.refreshHosts().catch(() => {});
    this.pump();
  }

  /**
   * Starts due checks while slots are free. Called by the timer and whenever a check
   * ends, so throughput is bounded by the daemons and the concurrency, not the tick.
   */
  private pump() {
    if (this.stopped) return;
    const now = Date.now();
    for (const slot of this.slots.values()) {
      if (this.inFlight >= this.opts.concurrency) break;
      if (slot.nextNode > now) continue;
      const withNetwork = slot.nextNetwork <= now;
      // Jitter of ±10 % keeps thousands of nodes from being checked in lock step.
      slot.nextNode = now + this.opts.nodeMs * (0.9 + Math.random() * 0.2);
      if (withNetwork) slot.nextNetwork = now + this.opts.networkMs * (0.9 + Math.random() * 0.2);
      this.inFlight++;
      const p: Promise<void> = this.check(slot.mnId, withNetwork, slot).finally(() => {
        this.inFlight--;
        this.checks.delete(p);
        this.endOfCheck(slot.mnId);
        this.pump();
      });
      this.checks.add(p);
    }
  }

  /** Keeps the "one pass over every node" gauge. */
  private endOfCheck(mnId: string) {
    this.cycle.delete(mnId);
    if (this.cycle.size > 0) return;
    if (this.slots.size > 0) this.metrics.cycleSeconds.set((Date.now() - this.cycleStart) / 1000);
    this.cycleStart = Date.now();
    this.cycle = new Set(this.slots.keys());
  }

  /** Checks one node now (also used by tests and after a restart). */
  async check(mnId: string, withNetwork = true, slot?: Slot): Promise<void> {
    const stopTimer = this.metrics.checkSeconds.startTimer();
    try {
      const node = await findNode(this.db, mnId);
      if (!node) return this.untrack(mnId);
      if (node.state !== 'live' || node.host_id === null) return;
      const host = this.hosts.get(node.host_id) ?? (await this.refreshHosts(), this.hosts.get(node.host_id));
      const profile = this.profiles[node.daemon_profile ?? ''];
      if (!host || !profile) return;
      const answered = await this.checkNode(node, host, profile, withNetwork);
      if (slot && slot.eagerUntil > Date.now()) {
        if (answered) slot.eagerUntil = 0;
        else slot.nextNode = slot.nextNetwork = Date.now() + EAGER_MS;
      }
    } catch (err) {
      this.log.error('monitor check failed', { node: mnId, err });
    } finally {
      stopTimer();
    }
  }

  /** Returns whether the daemon answered. */
  private async checkNode(
    node: Masternode,
    host: Host,
    profile: DaemonProfile,
    withNetwork: boolean,
  ): Promise<boolean> {
    const now = Date.now();
    const engine = this.engines.for(host);
    let engineState;
    try {
      engineState = await engine.inspect(node.mn_id);
    } catch (err) {
      this.metrics.engineErrors.inc({ host: host.name, op: 'inspect' });
      engineState = {
        state: 'missing' as const,
        restarts: node.engine_restarts,
        startedAt: null,
        exitCode: null,
        error: (err as Error).message,
      };
      if (host.state !== 'gone')
        this.log.warn('host unreachable', { host: host.name, node: node.mn_id, error: (err as Error).message });
    }
    let obs: Observation | null = null;
    let error: Error | null = null;
    let endpoint: RpcEndpoint | null = null;
    if (engineState.state === 'running') {
      try {
        endpoint = await engine.rpcEndpoint(node.mn_id);
        obs = await (this.opts.observe ?? observe)(node, profile, endpoint, this.opts.daemonTimeoutMs);
      } catch (err) {
        error = err as Error;
        this.metrics.daemonErrors.inc({ kind: err instanceof DaemonError ? err.kind : 'other' });
      }
    }
    const net =
      withNetwork && obs
        ? splitNetworkStatus(obs.networkStatus)
        : { status_on_network: node.status_on_network, status_text: node.status_text };
    const { status, problem } = nodeStatusFrom({
      engine: engineState,
      obs,
      error,
      networkStatus: net.status_on_network,
      now,
    });

    const patch: Omit<Insertable<ObservationsTable>, 'node_id'> = {
      status,
      checked_at: now,
      problem,
      status_on_network: node.status_on_network,
      status_text: node.status_text,
      wallet_info: node.wallet_info,
      blocks: node.blocks,
      active_since: node.active_since,
      first_answer_at: node.first_answer_at ?? (obs ? now : null),
    };
    if (obs) {
      patch.blocks = obs.blocks;
      patch.wallet_info = obs.wallet ? JSON.stringify({ ...obs.wallet, blocks: obs.blocks }) : null;
    }
    let paid: ReturnType<typeof paidOfCheck> = null;
    if (withNetwork && obs) {
      patch.status_on_network = net.status_on_network;
      patch.status_text = net.status_text;
      patch.network_checked_at = now;
      // How often the network pays its nodes: a reward figure, so none for a simulated node.
      if (obs.rewardFrequencyS !== null && node.simulated !== 1)
        patch.reward_freq_s = Math.max(1, Math.round(obs.rewardFrequencyS));
      const coin = await findCoin(this.db, node.coin_id);
      const coinBlockS = coin ? coinDetails(coin).reward.block_time_s : 60;
      const blockS = profile.run === 'simulator' ? simulatedBlockTimeS(coinBlockS, profile.time_scale) : coinBlockS;
      paid = paidOfCheck(node, obs, blockS, now);
      if (paid) Object.assign(patch, paid);
    }
    if (withNetwork && obs && endpoint) Object.assign(patch, await this.ownerViews.read(node, profile, endpoint, obs));
    const registerText = obs && endpoint ? await this.registrationText(node, profile, endpoint, obs) : null;
    if (status === 'running' && node.status !== 'running') patch.active_since = now;
    if (status !== 'running') patch.active_since = null;

    // Sync progress: what the page's progress line and the stall alert read.
    const prevSync = (await findSyncRow(this.db, node.id)) ?? null;
    const sync =
      obs && obs.blocks !== null
        ? nextSyncRow(prevSync, { blocks: obs.blocks, headers: obs.headers, synced: obs.synced }, now)
        : prevSync;
    const shownBefore = syncProgressOf(prevSync);
    const shownNow = syncProgressOf(sync);
    const syncMoved =
      (shownBefore === null) !== (shownNow === null) ||
      (shownNow !== null &&
        (shownNow.blocks !== shownBefore?.blocks ||
          shownNow.headers !== shownBefore?.headers ||
          shownNow.eta_s !== shownBefore?.eta_s));

    const firstAnswer = obs !== null && node.first_answer_at === null;
    let visibleChange =
      firstAnswer ||
      registerText !== null ||
      status !== node.status ||
      patch.status_on_network !== node.status_on_network ||
      (problem ?? null) !== node.last_error ||
      syncMoved;
    let alerted = false;
    await this.db.transaction().execute(async (trx) => {
      await saveObservation(trx, node.id, patch);
      if (sync && sync !== prevSync) await saveSyncRow(trx, node.id, sync);
      // Uptime counts from the daemon's first answer: its first start is deploying, not down.
      if (obs !== null || node.first_answer_at !== null) await countCheck(trx, node.id, now, obs !== null);
      // Notifications of this check (down/up, network, action, reward) commit with it: the one raise point.
      const seen = {
        status,
        answered: obs !== null,
        status_on_network: patch.status_on_network ?? null,
        last_paid_height: patch.last_paid_height,
        // A node that does not answer is "down", not stalled: only answered looks count.
        sync_stalled: obs !== null ? syncStalled(sync, now, this.opts.syncStallMs ?? 3_600_000) : null,
      };
      alerted = await alertsOfCheck(trx, node, seen, now, { downAfterMs: this.opts.alertDownMs ?? 180_000 });
      // The node's reward history (and the portfolio's income): the page and list show it.
      if (paid && (await recordReward(trx, node, paid, now))) visibleChange = true;
      if (registerText) await updateNodeRow(trx, node.id, { output_text: registerText });
      if (engineState.restarts !== node.engine_restarts)
        await updatePlacement(trx, node.id, { engine_restarts: engineState.restarts });
      // `started` once per node: a start call (register_submit, quick_setup) claims it before
      // asking the daemon; a node started from its owner's wallet is recorded here when first seen running.
      if (status === 'running' && node.started_at === null && (await noteFirstRun(trx, node.id, now))) {
        await insertEvent(trx, node.user_id, 'started', { mn_id: node.mn_id });
        visibleChange = true;
      }
      if (visibleChange) {
        await insertEvent(trx, node.user_id, 'refresh_masternode', { mn_id: node.mn_id });
        await insertEvent(trx, node.user_id, 'refresh_masternodes', {});

        // The build queue's item turns done ("Click here to continue") on the daemon's first answer.
        if (firstAnswer) await insertEvent(trx, node.user_id, 'refresh_queue', {});
      }
    });
    if (alerted && !visibleChange) void this.hub.poke();
    if (visibleChange) {
      void this.hub.poke();
      this.log.info('node status', {
        node: node.mn_id,
        from: node.status,
        to: status,
        network: patch.status_on_network ?? node.status_on_network,
        problem,
      });
    }
    return obs !== null;
  }

  /**
   * Monero-type (service/master nodes): once the node is synced and not registered, its
   * daemon makes the `register_{word}_node ...` command the owner runs in their own wallet
   * (the configuration view shows it). Asked once; null when there is nothing to write.
   */
  private async registrationText(
    node: Masternode,
    profile: DaemonProfile,
    endpoint: RpcEndpoint,
    obs: Observation,
  ): Promise<string | null> {
    if (profile.rpc !== 'monero' || !obs.synced || !obs.startRequired || !node.entry) return null;
    if (node.output_text?.startsWith('register_')) return null;
    const word =
      (profile.run === 'binary' ? profile.node_word : undefined) ??
      productionProfile(this.profiles, node.coin_id)?.profile.node_word ??
      'service';
    try {
      const coin = await findCoin(this.db, node.coin_id);
      // The owner stakes the whole requirement and keeps the whole operator cut.
      const command = await registrationCommand(
        endpoint,
        this.opts.daemonTimeoutMs,
        ['100', node.entry, coin?.collateral ?? '0'],
        { word },
      );
      return buildOutputText({ kind: 'monero_register', command });
    } catch (err) {
      this.log.warn('registration command unavailable', { node: node.mn_id, error: (err as Error).message });
      return null;
    }
  }
}
