import * as v from 'valibot';
import type { RpcEndpoint } from '../engine';
import { DaemonError, daemonRequest, type Auth } from './http';
import type { Observation } from './observation';

// Bitcoin-family JSON-RPC (litecoind, dashd and their forks). Every reply is checked.
const Envelope = v.object({ result: v.unknown(), error: v.nullable(v.object({ code: v.number(), message: v.string() })) });
const BlockchainInfo = v.object({ blocks: v.pipe(v.number(), v.integer(), v.minValue(0)), headers: v.pipe(v.number(), v.integer()), verificationprogress: v.number(), initialblockdownload: v.optional(v.boolean()) });
const NetworkInfo = v.object({ version: v.number(), subversion: v.string(), protocolversion: v.number(), connections: v.pipe(v.number(), v.integer(), v.minValue(0)) });
const DashStatus = v.object({ state: v.string(), status: v.string() });
const ClassicStatus = v.object({ status: v.string() });
const RewardInfo = v.object({ last_paid_height: v.nullable(v.number()), reward_frequency_s: v.nullable(v.number()) });

export type BitcoinRpc = { endpoint: RpcEndpoint; auth?: Auth; timeoutMs: number };

export async function bitcoinCall<T>(rpc: BitcoinRpc, method: string, params: unknown[], schema: v.GenericSchema<unknown, T>): Promise<T> {
  const { json } = await daemonRequest(rpc.endpoint, { method: 'POST', path: '/', body: { jsonrpc: '1.0', id: 'nodekeep', method, params }, auth: rpc.auth, timeoutMs: rpc.timeoutMs });
  const env = v.safeParse(Envelope, json);
  if (!env.success) throw new DaemonError(`${method}: reply is not a JSON-RPC envelope`, 'bad-reply');
  if (env.output.error) throw new DaemonError(`${method}: ${env.output.error.message} (${env.output.error.code})`, 'rpc-error');
  const result = v.safeParse(schema, env.output.result);
  if (!result.success) throw new DaemonError(`${method}: unexpected reply (${result.issues[0].message} at ${v.getDotPath(result.issues[0]) ?? 'top'})`, 'bad-reply');
  return result.output;
}

/** `dash`: masternode status with state/status; `classic`: a sentence; `none`: plain daemon (e.g. litecoind). */
export async function observeBitcoin(rpc: BitcoinRpc, flavour: 'dash' | 'classic' | 'none', simulated: boolean): Promise<Observation> {
  const [chain, net] = await Promise.all([bitcoinCall(rpc, 'getblockchaininfo', [], BlockchainInfo), bitcoinCall(rpc, 'getnetworkinfo', [], NetworkInfo)]);
  const synced = chain.initialblockdownload === false || (chain.initialblockdownload === undefined && chain.blocks >= chain.headers);
  const obs: Observation = {
    synced,
    blocks: chain.blocks,
    wallet: { version: `${net.version} ${net.subversion}`.trim(), protocol_version: String(net.protocolversion), connections: net.connections },
    networkStatus: null,
    startRequired: false,
    lastPaidHeight: null,
    rewardFrequencyS: null,
  };
  if (flavour === 'dash') {
    const st = await bitcoinCall(rpc, 'masternode', ['status'], DashStatus);
    obs.startRequired = st.state === 'WAITING_FOR_PROTX';
    obs.networkStatus = st.state === 'READY' ? 'ENABLED' : st.state;
  } else if (flavour === 'classic') {
    const st = await bitcoinCall(rpc, 'masternode', ['status'], ClassicStatus);
    obs.networkStatus = st.status;
    obs.startRequired = /NEW_START_REQUIRED|not found|not started/i.test(st.status);
  }
  if (simulated && flavour !== 'none') {
    const r = await bitcoinCall(rpc, 'getrewardinfo', [], RewardInfo);
    obs.lastPaidHeight = r.last_paid_height;
    obs.rewardFrequencyS = r.reward_frequency_s;
  }
  return obs;
}
