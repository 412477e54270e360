import * as v from 'valibot';
import type { RpcEndpoint } from '../engine';
import { DaemonError, daemonRequest } from './http';
import type { Observation } from './observation';

// Monero-family daemon RPC at /json_rpc (monerod; Beldex and Oxen service nodes add the service-node calls).
const Envelope = v.object({ result: v.optional(v.unknown()), error: v.nullish(v.object({ code: v.number(), message: v.string() })) });
const Info = v.object({
  status: v.string(),
  height: v.pipe(v.number(), v.integer(), v.minValue(0)),
  target_height: v.pipe(v.number(), v.integer(), v.minValue(0)),
  synchronized: v.optional(v.boolean()),
  version: v.optional(v.string()),
  incoming_connections_count: v.optional(v.number()),
  outgoing_connections_count: v.optional(v.number()),
});
const Key = v.object({ service_node_pubkey: v.string() });
const Nodes = v.object({ service_node_states: v.array(v.object({ service_node_pubkey: v.string(), active: v.boolean(), last_reward_block_height: v.optional(v.number()) })) });

async function call<T>(endpoint: RpcEndpoint, timeoutMs: number, method: string, params: unknown, schema: v.GenericSchema<unknown, T>): Promise<T> {
  const { json } = await daemonRequest(endpoint, { method: 'POST', path: '/json_rpc', body: { jsonrpc: '2.0', id: '0', method, params }, timeoutMs });
  const env = v.safeParse(Envelope, json);
  if (!env.success) throw new DaemonError(`${method}: reply is not a JSON-RPC envelope`, 'bad-reply');
  if (env.output.error) throw new DaemonError(`${method}: ${env.output.error.message}`, 'rpc-error');
  const r = v.safeParse(schema, env.output.result);
  if (!r.success) throw new DaemonError(`${method}: unexpected reply (${r.issues[0].message} at ${v.getDotPath(r.issues[0]) ?? 'top'})`, 'bad-reply');
  return r.output;
}

/** `serviceNode`: Beldex/Oxen-style service node calls exist; plain monerod has none. */
export async function observeMonero(endpoint: RpcEndpoint, timeoutMs: number, serviceNode: boolean): Promise<Observation> {
  const info = await call(endpoint, timeoutMs, 'get_info', {}, Info);
  // A node with nothing to catch up with (target 0 on regtest) is in sync.
  const synced = info.synchronized ?? (info.target_height === 0 || info.height >= info.target_height);
  const obs: Observation = {
    synced,
    blocks: info.height,
    wallet: { version: info.version ?? '', protocol_version: '', connections: (info.incoming_connections_count ?? 0) + (info.outgoing_connections_count ?? 0) },
    networkStatus: null,
    startRequired: false,
    lastPaidHeight: null,
    rewardFrequencyS: null,
    posePenalty: null,
    poseBanHeight: null,
  };
  if (serviceNode) {
    const { service_node_pubkey } = await call(endpoint, timeoutMs, 'get_service_node_key', {}, Key);
    const { service_node_states } = await call(endpoint, timeoutMs, 'get_service_nodes', { service_node_pubkeys: [service_node_pubkey] }, Nodes);
    const me = service_node_states.find((s) => s.service_node_pubkey === service_node_pubkey);
    obs.startRequired = !me;
    obs.networkStatus = me ? (me.active ? 'ACTIVE' : 'DECOMMISSIONED') : null;
    obs.lastPaidHeight = me?.last_reward_block_height || null;
  }
  return obs;
}
