import * as v from 'valibot';
import type { RpcEndpoint } from '../engine';
import { DaemonError, daemonRequest, type Auth } from './http';
import { chainObservation, type Observation } from './observation';

// Monero-family daemon RPC at /json_rpc (monerod; Beldex and Oxen service nodes add the service-node calls).
const Envelope = v.object({
  result: v.optional(v.unknown()),
  error: v.nullish(v.object({ code: v.number(), message: v.string() })),
});
const Info = v.object({
  status: v.string(),
  height: v.pipe(v.number(), v.integer(), v.minValue(0)),
  target_height: v.pipe(v.number(), v.integer(), v.minValue(0)),
  synchronized: v.optional(v.boolean()),
  version: v.optional(v.string()),
  incoming_connections_count: v.optional(v.number()),
  outgoing_connections_count: v.optional(v.number()),
});
/**
 * Oxen calls its nodes "service nodes", Beldex "master nodes": the same calls with the
 * word swapped in every method and field name (`get_master_node_key` → `master_node_pubkey`).
 */
export type NodeWord = 'service' | 'master';
const Key = (w: NodeWord) =>
  v.object({ [`${w}_node_pubkey`]: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) }) as v.GenericSchema<
    unknown,
    Record<string, string>
  >;
type NodeState = { pubkey: string; active: boolean; lastReward: number | undefined };
const Nodes = (w: NodeWord) =>
  v.pipe(
    v.object({
      [`${w}_node_states`]: v.array(
        v.looseObject({
          [`${w}_node_pubkey`]: v.string(),
          active: v.boolean(),
          last_reward_block_height: v.optional(v.number()),
        }),
      ),
    }),
    v.transform((r) =>
      (r[`${w}_node_states`] as Array<Record<string, unknown>>).map((s): NodeState => ({
        pubkey: s[`${w}_node_pubkey`] as string,
        active: s.active as boolean,
        lastReward: s.last_reward_block_height as number | undefined,
      })),
    ),
  );
const RegistrationCmd = v.object({ registration_cmd: v.string() });

function call<T>(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  method: string,
  params: unknown,
  schema: v.GenericSchema<unknown, T>,
): Promise<T> {
  return moneroJsonRpc(endpoint, { timeoutMs }, method, params, schema);
}

/**
 * A Monero-style JSON-RPC call (`POST /json_rpc`, the daemon's and the wallet RPC's) and
 * its result checked against `schema`. The remote's own error is made by `rpcError`
 * (the wallet's callers tell its codes apart).
 */
export async function moneroJsonRpc<T>(
  endpoint: RpcEndpoint,
  request: { timeoutMs: number; auth?: Auth },
  method: string,
  params: unknown,
  schema: v.GenericSchema<unknown, T>,
  rpcError: (method: string, e: { code: number; message: string }) => Error = (m, e) =>
    new DaemonError(`${m}: ${e.message}`, 'rpc-error'),
): Promise<T> {
  const { json } = await daemonRequest(endpoint, {
    method: 'POST',
    path: '/json_rpc',
    body: { jsonrpc: '2.0', id: '0', method, params },
    ...request,
  });
  const env = v.safeParse(Envelope, json);
  if (!env.success) throw new DaemonError(`${method}: reply is not a JSON-RPC envelope`, 'bad-reply');
  if (env.output.error) throw rpcError(method, env.output.error);
  const r = v.safeParse(schema, env.output.result);
  if (!r.success)
    throw new DaemonError(
      `${method}: unexpected reply (${r.issues[0].message} at ${v.getDotPath(r.issues[0]) ?? 'top'})`,
      'bad-reply',
    );
  return r.output;
}

/** The node's own service-node public key (what its owner's registration names). */
export async function serviceNodeKey(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  word: NodeWord = 'service',
): Promise<string> {
  return (await call(endpoint, timeoutMs, `get_${word}_node_key`, {}, Key(word)))[`${word}_node_pubkey`];
}

/**
 * The `register_{word}_node …` command the owner runs in their wallet, made by the node
 * (`get_service_node_registration_cmd_raw`, what `prepare_registration` prints): `args`
 * are the operator cut and each contributor's address and share, as the daemon documents.
 */
export async function registrationCommand(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  args: string[],
  opts: { word?: NodeWord; stakingRequirement?: number } = {},
): Promise<string> {
  const word = opts.word ?? 'service';
  const { registration_cmd } = await call(
    endpoint,
    timeoutMs,
    `get_${word}_node_registration_cmd_raw`,
    {
      args,
      make_friendly: false,
      ...(opts.stakingRequirement ? { staking_requirement: opts.stakingRequirement } : {}),
    },
    RegistrationCmd,
  );
  const cmd = registration_cmd.trim();
  if (!cmd.startsWith(`register_${word}_node `))
    throw new DaemonError(
      `get_${word}_node_registration_cmd_raw: unexpected command "${cmd.slice(0, 40)}"`,
      'bad-reply',
    );
  return cmd;
}

/** `serviceNode`: Beldex/Oxen-style service node calls exist; plain monerod has none. */
export async function observeMonero(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  serviceNode: boolean,
  word: NodeWord = 'service',
): Promise<Observation> {
  const info = await call(endpoint, timeoutMs, 'get_info', {}, Info);
  // A node with nothing to catch up with (target 0 on regtest) is in sync.
  const synced = info.synchronized ?? (info.target_height === 0 || info.height >= info.target_height);
  const obs = chainObservation(
    synced,
    info.height,
    {
      version: info.version ?? '',
      protocol_version: '',
      connections: (info.incoming_connections_count ?? 0) + (info.outgoing_connections_count ?? 0),
      // target_height 0 (or below the height) means nothing to catch up with.
    },
    Math.max(info.height, info.target_height),
  );
  if (serviceNode) {
    const pubkey = await serviceNodeKey(endpoint, timeoutMs, word);
    const states = await call(
      endpoint,
      timeoutMs,
      `get_${word}_nodes`,
      { [`${word}_node_pubkeys`]: [pubkey] },
      Nodes(word),
    );
    const me = states.find((s) => s.pubkey === pubkey);
    obs.startRequired = !me;
    obs.networkStatus = me ? (me.active ? 'ACTIVE' : 'DECOMMISSIONED') : null;
    obs.lastPaidHeight = me?.lastReward || null;
  }
  return obs;
}

/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const MONERO_REPLIES = { get_info: Info };
export const nodeWordReplies = (w: NodeWord) => ({
  [`get_${w}_node_key`]: Key(w),
  [`get_${w}_node_registration_cmd_raw`]: RegistrationCmd,
  [`get_${w}_nodes`]: Nodes(w),
});
