import * as v from 'valibot';
import { daemonRequest, DaemonError, type Auth } from './daemons/http';
import { bitcoinCall, RpcError } from './daemons/jsonrpc';
import { moneroJsonRpc } from './daemons/monero';
import type { RpcEndpoint } from './engine';
import { missingCalls, type PlatformCalls, type Replies } from './platform-calls';
import type { BinaryProfile } from './profiles';

/**
 * What a daemon said to one of the platform's calls, asked without arguments or state:
 * `answered` (and its reply passed every validator), `defined` (it refused the empty
 * call in its own words, so the call exists: `protx info` needs a hash), `missing` (no
 * such method), `refused` (it answered in a shape the platform cannot read), `not_asked`
 * (a call that only means something with a node's own key, e.g. a validator's status).
 */
export type CallProbe = {
  call: string;
  outcome: 'answered' | 'defined' | 'missing' | 'refused' | 'not_asked';
  detail: string;
};

/** Calls a fresh daemon without peers or keys must answer, in the shape the platform reads. */
export const STATELESS_CALLS = new Set([
  'getblockchaininfo',
  'getnetworkinfo',
  'getblockcount',
  'listwallets',
  'get_info',
  'GET /eth/v1/node/syncing',
  'GET /eth/v1/node/version',
  'GET /eth/v1/node/peer_count',
]);

const METHOD_NOT_FOUND = -32601;

function validate(call: string, reply: unknown, validators: v.GenericSchema[]): CallProbe {
  for (const schema of validators) {
    const r = v.safeParse(schema, reply);
    if (!r.success)
      return {
        call,
        outcome: 'refused',
        detail: `unexpected reply: ${r.issues[0].message} at ${v.getDotPath(r.issues[0]) ?? 'top'}`,
      };
  }
  return { call, outcome: 'answered', detail: 'answered as the platform reads it' };
}

async function probeOne(
  profile: BinaryProfile,
  rpc: { endpoint: RpcEndpoint; auth?: Auth; timeoutMs: number },
  call: string,
  validators: v.GenericSchema[],
): Promise<CallProbe> {
  if (profile.rpc === 'evm') {
    const [method, path] = call.split(' ');
    if (method !== 'GET' || path.includes('{') || path.startsWith('/eth/v1/keystores') || !STATELESS_CALLS.has(call))
      return { call, outcome: 'not_asked', detail: "needs a validator's key" };
    const { status, json } = await daemonRequest(rpc.endpoint, { method: 'GET', path, timeoutMs: rpc.timeoutMs });
    if (status === 404) return { call, outcome: 'missing', detail: `HTTP 404` };
    if (status !== 200) return { call, outcome: 'refused', detail: `HTTP ${status}` };
    return validate(call, json, validators);
  }
  if (profile.rpc === 'monero') {
    try {
      const reply = await moneroJsonRpc(
        rpc.endpoint,
        rpc,
        call,
        {},
        v.unknown(),
        (_m, e) => new RpcError(call, e.code, e.message),
      );
      return validate(call, reply, validators);
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      if (err.code === METHOD_NOT_FOUND) return { call, outcome: 'missing', detail: err.daemonMessage };
      return { call, outcome: 'defined', detail: err.daemonMessage };
    }
  }
  // Bitcoin family: "protx info" is `protx` with the sub-command `info`.
  const [method, ...sub] = call.split(' ');
  try {
    const reply = await bitcoinCall(rpc, method, sub, v.unknown());
    return validate(call, reply, validators);
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    if (err.code === METHOD_NOT_FOUND) return { call, outcome: 'missing', detail: err.daemonMessage };
    // An unknown sub-command is refused with the parent's help or "Unknown command".
    if (sub.length && /unknown (sub-?)?command|invalid command|must be one of/i.test(err.daemonMessage))
      return { call, outcome: 'missing', detail: err.daemonMessage.split('\n')[0] };
    if (STATELESS_CALLS.has(call)) return { call, outcome: 'refused', detail: err.daemonMessage.split('\n')[0] };
    return { call, outcome: 'defined', detail: err.daemonMessage.split('\n')[0] };
  }
}

/** Asks a running daemon each of the platform's calls (platformCalls), one after another. */
export async function probeCalls(
  profile: BinaryProfile,
  rpc: { endpoint: RpcEndpoint; auth?: Auth; timeoutMs: number },
  calls: Replies,
): Promise<CallProbe[]> {
  const out: CallProbe[] = [];
  for (const [call, validators] of Object.entries(calls)) {
    try {
      out.push(await probeOne(profile, rpc, call, validators));
    } catch (err) {
      out.push({ call, outcome: 'refused', detail: err instanceof DaemonError ? err.message : String(err) });
    }
  }
  return out;
}

/**
 * The calls that fail a check: unreadable, a stateless one not answered, or missing where
 * the platform needs it (a required call, or every call of an alternatives group; an
 * optional one may be missing).
 */
export function failedProbes(probes: CallProbe[], calls: PlatformCalls): CallProbe[] {
  const absent = new Set(probes.filter((p) => p.outcome === 'missing').map((p) => p.call));
  const needed = new Set(missingCalls(calls, (c) => !absent.has(c)).flatMap((m) => m.split(' | ')));
  return probes.filter(
    (p) =>
      p.outcome === 'refused' ||
      (p.outcome === 'missing' && needed.has(p.call)) ||
      (p.outcome !== 'missing' && STATELESS_CALLS.has(p.call) && p.outcome !== 'answered'),
  );
}
