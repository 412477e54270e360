import * as v from 'valibot';
import type { RpcEndpoint } from '../engine';
import { DaemonError, daemonRequest } from './http';
import type { Observation } from './observation';

// Ethereum beacon-node REST API (what EVM validator nodes answer).
const Syncing = v.object({
  data: v.object({
    head_slot: v.pipe(v.string(), v.regex(/^\d+$/)),
    sync_distance: v.pipe(v.string(), v.regex(/^\d+$/)),
    is_syncing: v.boolean(),
  }),
});
const Version = v.object({ data: v.object({ version: v.string() }) });
const Peers = v.object({ data: v.object({ connected: v.string() }) });
const Validator = v.object({ data: v.object({ status: v.string() }) });
const ValidatorState = v.object({
  data: v.object({ index: v.pipe(v.string(), v.regex(/^\d+$/)), status: v.string() }),
});
const Refusal = v.looseObject({ message: v.string() });

async function get<T>(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  path: string,
  schema: v.GenericSchema<unknown, T>,
  allow404 = false,
): Promise<T | null> {
  const { status, json } = await daemonRequest(endpoint, { method: 'GET', path, timeoutMs });
  if (status === 404 && allow404) return null;
  if (status !== 200) throw new DaemonError(`${path}: HTTP ${status}`, 'rpc-error');
  const r = v.safeParse(schema, json);
  if (!r.success) throw new DaemonError(`${path}: unexpected reply`, 'bad-reply');
  return r.output;
}

export async function observeBeacon(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  validatorPubkey: string | null,
): Promise<Observation> {
  const [sync, version, peers] = await Promise.all([
    get(endpoint, timeoutMs, '/eth/v1/node/syncing', Syncing),
    get(endpoint, timeoutMs, '/eth/v1/node/version', Version),
    get(endpoint, timeoutMs, '/eth/v1/node/peer_count', Peers),
  ]);
  const validator = validatorPubkey
    ? await get(endpoint, timeoutMs, `/eth/v1/beacon/states/head/validators/${validatorPubkey}`, Validator, true)
    : null;
  return {
    synced: !sync!.data.is_syncing,
    blocks: Number(sync!.data.head_slot),
    headers: Number(sync!.data.head_slot) + Number(sync!.data.sync_distance),
    wallet: { version: version!.data.version, protocol_version: '', connections: Number(peers!.data.connected) },
    networkStatus: validator ? validator.data.status.toUpperCase() : null,
    startRequired: !validator,
    lastPaidHeight: null,
    rewardFrequencyS: null,
    posePenalty: null,
    poseBanHeight: null,
  };
}

/** The validator's index and state on the beacon chain now; null before its deposit is seen. */
export async function validatorState(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  pubkey: string,
): Promise<{ index: string; status: string } | null> {
  const r = await get(endpoint, timeoutMs, `/eth/v1/beacon/states/head/validators/${pubkey}`, ValidatorState, true);
  return r && { index: r.data.index, status: r.data.status.toUpperCase() };
}

/** `POST /eth/v1/beacon/pool/voluntary_exits`: the signed exit goes to the network; a refusal in the node's words. */
export async function publishVoluntaryExit(
  endpoint: RpcEndpoint,
  timeoutMs: number,
  signed: { message: { epoch: string; validator_index: string }; signature: string },
): Promise<void> {
  const { status, json } = await daemonRequest(endpoint, {
    method: 'POST',
    path: '/eth/v1/beacon/pool/voluntary_exits',
    body: signed,
    timeoutMs,
  });
  if (status === 200) return;
  const r = v.safeParse(Refusal, json);
  throw new DaemonError(r.success ? r.output.message.slice(0, 200) : `HTTP ${status}`, 'rpc-error');
}

/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const BEACON_REPLIES = {
  'GET /eth/v1/node/syncing': Syncing,
  'GET /eth/v1/node/version': Version,
  'GET /eth/v1/node/peer_count': Peers,
  'GET /eth/v1/beacon/states/{state_id}/validators/{validator_id}': Validator,
};
