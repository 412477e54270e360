import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { holdsValidator, validatorIndex, type SimChains, type SimNode } from './chain';
import {
  BASE58,
  addressBalance,
  addressDeltas,
  blockHeader,
  collateralAddress,
  getBlockHash,
  proposals,
  rawTransaction,
  registerPrepare,
  registerSubmit,
  SimRpcError,
} from './ledger';

/**
 * COIN-DAEMON SIMULATOR: the subset of each family's real RPC that the platform calls.
 * Answers have the real daemons' shapes (Bitcoin/Dash JSON-RPC 1.0, Monero /json_rpc,
 * the Ethereum beacon-node REST API), with "Simulator" in every version string.
 */
export type RpcReply = {
  status: number;
  body: unknown;
  /** The call changed the simulated world: save it. */ changed?: boolean;
};

const VERSION = 'Nodekeep-Simulator/1.0';
/** The node's version text: the simulator's, and the daemon version it stands for. */
const versionOf = (node: SimNode) => (node.daemonVersion ? `${VERSION}:${node.daemonVersion}` : VERSION);
/** A daemon version that does not start: how such a daemon answers (see SimNodeConfig.daemonVersion). */
const BROKEN: RpcReply = {
  status: 500,
  body: {
    result: null,
    error: { code: -28, message: 'Loading block index... failed: this version does not run on this chain' },
    id: null,
  },
};
const ok = (body: unknown): RpcReply => ({ status: 200, body });

type JsonRpcCall = { id?: unknown; method?: unknown; params?: unknown };

function jsonRpc(call: JsonRpcCall, result: (method: string, params: unknown[]) => unknown): RpcReply {
  const id = call.id ?? null;
  if (typeof call.method !== 'string')
    return { status: 400, body: { result: null, error: { code: -32600, message: 'Invalid Request' }, id } };
  const params = Array.isArray(call.params) ? call.params : [];
  let value: unknown;
  try {
    value = result(call.method, params);
  } catch (err) {
    // bitcoind-family daemons answer RPC errors with HTTP 500 (404 for an unknown method).
    if (err instanceof SimRpcError)
      return { status: 500, body: { result: null, error: { code: err.code, message: err.message }, id } };
    throw err;
  }
  if (value === undefined)
    return { status: 404, body: { result: null, error: { code: -32601, message: 'Method not found' }, id } };
  return ok({ result: value, error: null, id });
}

function bitcoinLike(chains: SimChains, node: SimNode, call: JsonRpcCall): RpcReply {
  const height = chains.height(node);
  const tip = chains.tip(node.coin);
  const dash = node.rpc === 'dash';
  let changed = false;
  const reply = jsonRpc(call, (method, params) => {
    switch (method) {
      case 'getblockcount':
        return height;
      case 'getblockchaininfo':
        return {
          chain: 'main',
          blocks: height,
          headers: tip,
          verificationprogress: tip ? height / tip : 1,
          initialblockdownload: height < tip,
        };
      case 'getnetworkinfo':
        return {
          version: 190_100,
          subversion: `/${versionOf(node)}/`,
          protocolversion: 70_230,
          connections: 8 + (node.nodeId.length % 5),
        };
      case 'masternode': {
        if (params[0] === 'status') {
          const net = chains.networkStatus(node);
          if (dash) {
            const ready = net === 'ENABLED' || net === 'PRE_ENABLED';
            return {
              outpoint: `${node.proTxHash}-1`,
              service: '127.0.0.1:9999',
              proTxHash: node.proTxHash,
              state: ready ? 'READY' : net === 'WAITING_FOR_PROTX' ? 'WAITING_FOR_PROTX' : net,
              status: ready ? 'Ready' : net === 'WAITING_FOR_PROTX' ? 'Waiting for ProTx to appear on-chain' : net,
            };
          }
          // Classic daemons answer with a sentence; its fourth word is the status.
          return {
            addr: collateralAddress(node),
            status:
              net === 'WAITING_FOR_PROTX'
                ? 'Masternode not found NEW_START_REQUIRED'
                : `Masternode successfully started ${net}`,
          };
        }
        // A fresh key in WIF's shape (not a real key): what the hosted node's config takes.
        if (params[0] === 'genkey') return `7${[...randomBytes(50)].map((b) => BASE58[b % 58]).join('')}`;
        if (params[0] === 'count')
          return {
            total: Object.values(chains.state.nodes).filter((n) => n.coin === node.coin).length,
            enabled: chains.enabled(node.coin).length,
          };
        return undefined;
      }
      case 'protx': {
        if (!dash) return undefined;
        if (params[0] === 'list') return chains.enabled(node.coin).map((n) => n.proTxHash);
        if (params[0] === 'info') {
          const target = Object.values(chains.state.nodes).find((n) => n.proTxHash === params[1]);
          if (!target) return undefined;
          const registeredHeight = target.registeredAt === null ? -1 : chains.heightAt(target, target.registeredAt);
          return {
            proTxHash: target.proTxHash,
            collateralHash: target.proTxHash,
            collateralIndex: 1,
            collateralAddress: collateralAddress(target),
            operatorReward: 0,
            state: {
              registeredHeight,
              lastPaidHeight: chains.lastPaid(target) ?? 0,
              PoSePenalty: target.forcedPenalty ?? 0,
              PoSeRevivedHeight: -1,
              PoSeBanHeight: target.forcedStatus === 'POSE_BANNED' ? tip : -1,
              revocationReason: 0,
              payoutAddress: collateralAddress(target),
              pubKeyOperator: target.blsPublic,
              service: '127.0.0.1:9999',
            },
          };
        }
        if (params[0] === 'register_prepare') return registerPrepare(params.slice(1));
        if (params[0] === 'register_submit') {
          changed = true;
          return registerSubmit(chains, node, params[1], params[2]);
        }
        return undefined;
      }
      case 'gobject':
        return dash && params[0] === 'list' ? proposals(chains, node) : undefined;
      case 'getaddressbalance':
        return addressBalance(chains, node.coin, params);
      case 'getaddressdeltas':
        return addressDeltas(chains, node.coin, params);
      case 'getblockhash':
        return getBlockHash(chains, node, params[0]);
      case 'getblockheader':
        return blockHeader(chains, node, params[0]);
      case 'getrawtransaction':
        return rawTransaction(chains, node.coin, node.blockTimeS, params[0], params[1]);
      case 'bls':
        return dash && params[0] === 'generate' ? { secret: node.blsSecret, public: node.blsPublic } : undefined;
      case 'getrewardinfo':
        // Not a real call: the simulator's own way to tell the monitor about payments.
        return { last_paid_height: chains.lastPaid(node), reward_frequency_s: chains.rewardFrequencyS(node.coin), tip };
      default:
        return undefined;
    }
  });
  return changed ? { ...reply, changed } : reply;
}

/**
 * Chain-wide calls that need no node of the coin (`/c/<coin>/`): SIN's burn check runs
 * before its node exists.
 */
export function coinAnswer(chains: SimChains, coin: string, method: string, body: unknown): RpcReply {
  if (method !== 'POST') return { status: 405, body: { error: 'JSON-RPC wants POST' } };
  const call = (typeof body === 'object' && body !== null ? body : {}) as JsonRpcCall;
  const blockTimeS = Object.values(chains.state.nodes).find((n) => n.coin === coin)?.blockTimeS ?? 60;
  return jsonRpc(call, (m, params) => {
    if (m === 'getrawtransaction') return rawTransaction(chains, coin, blockTimeS, params[0], params[1]);
    if (m === 'getblockcount') return chains.tip(coin);
    return undefined;
  });
}

function moneroLike(chains: SimChains, node: SimNode, call: JsonRpcCall): RpcReply {
  const height = chains.height(node);
  const tip = chains.tip(node.coin);
  const pubkey = node.proTxHash;
  // Monero-style params are an object; Oxen says "service node", Beldex "master node".
  const named = (
    typeof call.params === 'object' && call.params !== null && !Array.isArray(call.params) ? call.params : {}
  ) as Record<string, unknown>;
  return jsonRpc(call, (method) => {
    const m = /^get_(service|master)_(node_key|nodes|node_registration_cmd_raw)$/.exec(method);
    if (method === 'get_info')
      return {
        status: 'OK',
        height,
        target_height: tip,
        synchronized: height >= tip,
        version: `0.18.0.0-${versionOf(node)}`,
        incoming_connections_count: 4,
        outgoing_connections_count: 8,
        nettype: 'mainnet',
      };
    if (!m) return undefined;
    const word = m[1];
    if (m[2] === 'node_key') return { status: 'OK', [`${word}_node_pubkey`]: pubkey };
    if (m[2] === 'nodes') {
      const net = chains.networkStatus(node);
      return {
        status: 'OK',
        [`${word}_node_states`]:
          node.registeredAt === null
            ? []
            : [
                {
                  [`${word}_node_pubkey`]: pubkey,
                  active: net === 'ENABLED' || net === 'PRE_ENABLED',
                  funded: true,
                  registration_height: 1,
                  last_reward_block_height: chains.lastPaid(node) ?? 0,
                },
              ],
      };
    }
    const args = named.args;
    if (
      !Array.isArray(args) ||
      args.length < 3 ||
      args.some((a) => typeof a !== 'string' || !/^[\w.%]{1,120}$/.test(a))
    )
      throw new SimRpcError(-1, 'Invalid arguments: expected <operator cut> <address> <amount or %> ...');
    // Valid for two weeks, signed with the node's key: what prepare_registration prints.
    const expiry = Math.floor(Date.now() / 1000) + 14 * 86_400;
    return {
      status: 'OK',
      registration_cmd: `register_${word}_node ${args.join(' ')} ${expiry} ${pubkey} ${node.blsSecret}${node.blsSecret.slice(0, 64)}`,
    };
  });
}

function beacon(chains: SimChains, node: SimNode, path: string): RpcReply {
  const height = chains.height(node);
  const tip = chains.tip(node.coin);
  if (path === '/eth/v1/node/version') return ok({ data: { version: `${versionOf(node)}/beacon` } });
  if (path === '/eth/v1/node/syncing')
    return ok({
      data: {
        head_slot: String(height),
        sync_distance: String(tip - height),
        is_syncing: height < tip,
        is_optimistic: false,
      },
    });
  if (path === '/eth/v1/node/peer_count')
    return ok({ data: { connected: '64', connecting: '0', disconnected: '3', disconnecting: '0' } });
  const m = /^\/eth\/v1\/beacon\/states\/head\/validators\/(0x[0-9a-f]+)$/.exec(path);
  if (m) {
    // Known to the beacon chain once its deposit is (admin `register`: the demo's deposit).
    if (!holdsValidator(node, m[1]) || node.registeredAt === null)
      return { status: 404, body: { code: 404, message: 'Validator not found' } };
    return ok({
      data: {
        index: validatorIndex(node),
        balance: '32000000000',
        status: chains.networkStatus(node).toLowerCase(),
        validator: { pubkey: m[1] },
      },
    });
  }
  return { status: 404, body: { code: 404, message: `Route ${path} not found` } };
}

const SignedExit = v.object({
  message: v.object({
    epoch: v.pipe(v.string(), v.regex(/^\d+$/)),
    validator_index: v.pipe(v.string(), v.regex(/^\d+$/)),
  }),
  signature: v.pipe(v.string(), v.regex(/^0x[0-9a-f]{192}$/)),
});

/**
 * `POST /eth/v1/beacon/pool/voluntary_exits`: a signed exit of a validator this node runs.
 * Like a beacon node: a malformed or unknown one 400, an exit already under way 400.
 */
function voluntaryExit(chains: SimChains, node: SimNode, body: unknown): RpcReply {
  const bad = (message: string): RpcReply => ({ status: 400, body: { code: 400, message } });
  const r = v.safeParse(SignedExit, body);
  if (!r.success) return bad('Invalid voluntary exit: malformed');
  if (node.registeredAt === null || r.output.message.validator_index !== validatorIndex(node))
    return bad('Invalid voluntary exit: unknown validator');
  if (node.exitAt) return bad('Invalid voluntary exit: exit already initiated');
  if (!chains.networkStatus(node).startsWith('ACTIVE')) return bad('Invalid voluntary exit: validator is not active');
  node.exitAt = Date.now();
  return { status: 200, body: null, changed: true };
}

/** Dispatches one request for a node, by its RPC family. */
export function answer(chains: SimChains, node: SimNode, method: string, path: string, body: unknown): RpcReply {
  if (node.daemonVersion?.includes('broken')) return BROKEN;
  if (node.rpc === 'evm') {
    if (method === 'POST' && path === '/eth/v1/beacon/pool/voluntary_exits') return voluntaryExit(chains, node, body);
    return method === 'GET' ? beacon(chains, node, path) : { status: 405, body: { message: 'GET only' } };
  }
  if (method !== 'POST') return { status: 405, body: { error: 'JSON-RPC wants POST' } };
  const call = (typeof body === 'object' && body !== null ? body : {}) as JsonRpcCall;
  if (node.rpc === 'monero')
    return path === '/json_rpc' ? moneroLike(chains, node, call) : { status: 404, body: { error: 'not found' } };
  return bitcoinLike(chains, node, call);
}
