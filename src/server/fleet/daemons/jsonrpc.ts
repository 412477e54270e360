import * as v from 'valibot';
import type { RpcEndpoint } from '../engine';
import { DaemonError, daemonRequest, type Auth } from './http';

// Bitcoin-family JSON-RPC 1.0 envelope (litecoind, dashd and their forks).
const Envelope = v.object({
  result: v.unknown(),
  error: v.nullable(v.object({ code: v.number(), message: v.string() })),
});

export type BitcoinRpc = {
  endpoint: RpcEndpoint;
  auth?: Auth;
  timeoutMs: number;
  /** A loaded wallet of a multi-wallet daemon: calls go to `/wallet/<name>`. */ wallet?: string;
  /** The daemon's own names for the platform's renamable calls (its profile's `calls`). */
  calls?: CallNames;
};

/**
 * The platform's calls a fork may name otherwise (PIVX's `getmasternodestatus`, Raptoreum's
 * `smartnode status`, Syscoin's `protx_info`...). "protx info" is `protx` with the
 * sub-command `info`.
 */
export const RENAMABLE_CALLS = [
  'masternode status',
  'protx info',
  'protx register_prepare',
  'protx register_submit',
  'gobject list',
] as const;
export type RenamableCall = (typeof RENAMABLE_CALLS)[number];
/** A daemon's name for each call it names otherwise; null: it has no such call and the platform does without. */
export type CallNames = Partial<Record<RenamableCall, string | null>>;

/** The daemon's own name for one of the platform's calls; null when it has none. */
export const daemonCallName = (calls: CallNames | undefined, call: RenamableCall): string | null =>
  calls?.[call] === undefined ? call : calls[call];

/** The daemon has no such call (its profile says so): the platform does without it. */
export class NoSuchCall extends DaemonError {
  constructor(readonly call: RenamableCall) {
    super(`${call}: the daemon has no such call`, 'rpc-error');
  }
}

/** One of the platform's renamable calls under the daemon's own name, its sub-command words before `params`. */
export function namedCall<T>(
  rpc: BitcoinRpc,
  call: RenamableCall,
  params: unknown[],
  schema: v.GenericSchema<unknown, T>,
): Promise<T> {
  const name = daemonCallName(rpc.calls, call);
  if (name === null) return Promise.reject(new NoSuchCall(call));
  const [method, ...sub] = name.split(' ');
  return bitcoinCall(rpc, method, [...sub, ...params], schema);
}

/** One call; the daemon's error keeps its code in the message ("... (-8)") and the result is checked against `schema`. */
export async function bitcoinCall<T>(
  rpc: BitcoinRpc,
  method: string,
  params: unknown[],
  schema: v.GenericSchema<unknown, T>,
): Promise<T> {
  const { status, json } = await daemonRequest(rpc.endpoint, {
    method: 'POST',
    path: rpc.wallet ? `/wallet/${encodeURIComponent(rpc.wallet)}` : '/',
    body: { jsonrpc: '1.0', id: 'nodekeep', method, params },
    auth: rpc.auth,
    timeoutMs: rpc.timeoutMs,
  });
  // bitcoind answers bad credentials with an empty 401: say so rather than "not an envelope".
  if (status === 401 || status === 403)
    throw new DaemonError(`${method}: the daemon refused the RPC user and password (HTTP ${status})`, 'bad-reply');
  const env = v.safeParse(Envelope, json);
  if (!env.success) throw new DaemonError(`${method}: reply is not a JSON-RPC envelope`, 'bad-reply');
  if (env.output.error) throw new RpcError(method, env.output.error.code, env.output.error.message);
  const result = v.safeParse(schema, env.output.result);
  if (!result.success)
    throw new DaemonError(
      `${method}: unexpected reply (${result.issues[0].message} at ${v.getDotPath(result.issues[0]) ?? 'top'})`,
      'bad-reply',
    );
  return result.output;
}

/** The daemon answered with a JSON-RPC error: its own code and words, for callers that tell them apart. */
export class RpcError extends DaemonError {
  constructor(
    method: string,
    readonly code: number,
    readonly daemonMessage: string,
  ) {
    super(`${method}: ${daemonMessage} (${code})`, 'rpc-error');
  }
}
