import type { Insertable } from 'kysely';
import type { Masternode, ObservationsTable } from '../db/schema';
import type { Logger } from '../kernel/log';
import { nodeDaemon } from './daemon-calls';
import { collateralOf } from './output-read';
import { splitOutpoint } from './output-text';
import {
  forNodePage,
  outputAddress,
  outputHeight,
  rescanWatched,
  walletNotLoaded,
  watchAddress,
  watchedActivity,
  type WatchWallet,
} from '../fleet/daemons/activity';
import type { BitcoinRpc } from '../fleet/daemons/jsonrpc';
import type { Observation } from '../fleet/daemons/observation';
import type { RpcEndpoint } from '../fleet/engine';
import { rpcAuth } from '../fleet/observe';
import { activityWay, type DaemonProfile } from '../fleet/profiles';

export type OwnerView = Pick<Insertable<ObservationsTable>, 'activity' | 'pose_penalty'>;

const TXID = /^[0-9a-fA-F]{64}$/;
/** A rescan may take long on a long chain; the daemon goes on with it even if we stop waiting. */
const RESCAN_TIMEOUT_MS = 30 * 60_000;

/** The node's collateral outpoint: from its masternode.conf line, else the txid (and index) its owner entered. */
function collateralOutpoint(node: Masternode): { txid: string; index: number } | null {
  const fromText = collateralOf(node.output_text);
  if (fromText) return { txid: fromText.txid, index: fromText.index ?? 0 };
  const entered = node.entry ? splitOutpoint(node.entry) : null;
  return entered && TXID.test(entered.txid) ? { txid: entered.txid.toLowerCase(), index: entered.index } : null;
}

/** The address of the activity the node showed last (its collateral output does not change). */
function lastAddress(node: Masternode): string | null {
  try {
    const a = node.activity ? (JSON.parse(node.activity) as { address?: unknown }) : null;
    return typeof a?.address === 'string' ? a.address : null;
  } catch {
    return null;
  }
}

/**
 * The owner's view of the node's money (Earnings and Exits cards: the collateral
 * address's balance, what it sent, its transactions) and its PoSe penalty, read the way
 * the node's daemon profile says (`activity`). A daemon that cannot answer leaves the
 * last values as they were and is logged; it never fails the status check.
 */
export class OwnerViews {
  /** Nodes whose daemon is known, in this process, to watch their collateral address: which address, in which wallet. */
  private watched = new Map<string, { address: string; wallet: WatchWallet }>();
  /** Rescans under way after an import, by node: the status checks do not wait for them. */
  private rescans = new Map<string, Promise<void>>();
  /** Nodes whose rescan failed: started again by their next status check. */
  private rescanDue = new Map<string, { rpc: BitcoinRpc; address: string; wallet: WatchWallet }>();

  constructor(
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  forget(mnId: string) {
    this.watched.delete(mnId);
    this.rescanDue.delete(mnId);
  }

  async read(node: Masternode, profile: DaemonProfile, endpoint: RpcEndpoint, obs: Observation): Promise<OwnerView> {
    const way = activityWay(profile);
    const dash = profile.rpc === 'dash' || profile.flavour === 'dash';
    // The PoSe penalty comes with the status check itself: shown whatever the activity way.
    const out: OwnerView = dash ? { pose_penalty: obs.posePenalty } : {};
    if (way === 'none') return out;
    const simulated = profile.run === 'simulator';
    const auth = rpcAuth(node, simulated);
    const daemon = nodeDaemon({ endpoint, auth, profile, simulated }, node.mn_id, this.timeoutMs);
    try {
      let address: string | null;
      if (dash) {
        address = obs.collateralAddress ?? null;
      } else if (way === 'address_index') address = (await daemon.chainRecord()).collateralAddress;
      else address = await this.collateralAddress(node, profile, { endpoint, auth, timeoutMs: this.timeoutMs });
      if (!address) return out;
      if (way === 'address_index') {
        const activity = await daemon.activity(address);
        if (activity) out.activity = JSON.stringify(activity);
      } else {
        const activity = await this.watchedActivity(node, { endpoint, auth, timeoutMs: this.timeoutMs }, address);
        if (activity) out.activity = JSON.stringify(activity);
      }
    } catch (err) {
      this.log.warn('wallet activity unavailable', { node: node.mn_id, way, error: (err as Error).message });
    }
    return out;
  }

  /**
   * A daemon without an address index: a classic daemon names the collateral address in
   * `masternode status` once the node is started; before that (and on plain daemons
   * such as litecoind) it is the address the collateral output pays, and once that
   * output is spent (and not indexed) the address the node showed last.
   */
  private async collateralAddress(node: Masternode, profile: DaemonProfile, rpc: BitcoinRpc): Promise<string | null> {
    if (profile.flavour === 'classic') {
      const simulated = profile.run === 'simulator';
      const named = await nodeDaemon(
        { endpoint: rpc.endpoint, auth: rpc.auth, profile, simulated },
        node.mn_id,
        rpc.timeoutMs,
      )
        .chainRecord()
        .then((r) => r.collateralAddress)
        .catch(() => null); // "masternode not found" until the owner starts it
      if (named) return named;
    }
    const outpoint = collateralOutpoint(node);
    const paid = outpoint ? await outputAddress(rpc, outpoint.txid, outpoint.index) : null;
    return paid ?? lastAddress(node);
  }

  /**
   * The watch-only wallet's reading. The first time in this process (or for a new
   * address) the daemon is asked to watch the address; it imports it (without a rescan)
   * only if its wallet does not watch it yet, and then rescans from the collateral's
   * block in the background: this check and the next ones answer no reading (the last
   * one stays) until the rescan is done. A daemon restarted since has the wallet
   * unloaded: it is loaded again and the read tried once more.
   */
  private async watchedActivity(node: Masternode, rpc: BitcoinRpc, address: string) {
    const known = this.watched.get(node.mn_id);
    let wallet: WatchWallet;
    if (known?.address === address) wallet = known.wallet;
    else wallet = await this.watch(node, rpc, address);
    const due = this.rescanDue.get(node.mn_id);
    if (due) this.rescan(node, due.rpc, due.address, due.wallet);
    if (this.rescans.has(node.mn_id)) return null;
    try {
      return forNodePage(await watchedActivity(rpc, address, { wallet }));
    } catch (err) {
      if (!walletNotLoaded(err)) throw err;
      this.watched.delete(node.mn_id);
      const again = await this.watch(node, rpc, address);
      if (this.rescans.has(node.mn_id)) return null;
      return forNodePage(await watchedActivity(rpc, address, { wallet: again }));
    }
  }

  private async watch(node: Masternode, rpc: BitcoinRpc, address: string): Promise<WatchWallet> {
    const done = await watchAddress(rpc, address, { rescan: false });
    if (done.imported) {
      this.log.info('collateral address watched', { node: node.mn_id, address });
      this.rescan(node, rpc, address, done.wallet);
    }
    this.watched.set(node.mn_id, { address, wallet: done.wallet });
    return done.wallet;
  }

  /** Starts the node's rescan unless one is under way; not awaited. */
  private rescan(node: Masternode, rpc: BitcoinRpc, address: string, wallet: WatchWallet) {
    const id = node.mn_id;
    if (this.rescans.has(id)) return;
    this.rescanDue.delete(id);
    const outpoint = collateralOutpoint(node);
    const task = (async () => {
      const from = outpoint ? await outputHeight(rpc, outpoint.txid, outpoint.index).catch(() => null) : null;
      await rescanWatched({ ...rpc, timeoutMs: RESCAN_TIMEOUT_MS }, address, wallet, from);
      this.log.info('collateral address rescanned', { node: id, address, from_height: from });
    })()
      .catch((err: unknown) => {
        this.rescanDue.set(id, { rpc, address, wallet });
        this.log.warn('collateral address rescan failed; tried again at the next check', {
          node: id,
          error: (err as Error).message,
        });
      })
      .finally(() => this.rescans.delete(id));
    this.rescans.set(id, task);
  }
}
