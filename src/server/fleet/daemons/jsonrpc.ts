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
};

/** One call; the daemon's error keeps its code in the message ("... (-8)") and the result is checked against `schema`. */
export async function bitcoinCall<T>(
  rpc: BitcoinRpc,
  method: string,
  params: unknown[],
  schema: v.GenericSchema<unknown, T>,
): Promise<T> {
  const { json } = await daemonRequest(rpc.endpoint, {
    method: 'POST',
    path: rpc.wallet ? `/wallet/${encodeURIComponent(rpc.wallet)}` : '/',
    body: { jsonrpc: '1.0', id: 'nodekeep', method, params },
    auth: rpc.auth,
    timeoutMs: rpc.timeoutMs,
  });
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
