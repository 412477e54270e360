import type { WebSocket } from 'ws';
import type { RequestMeta } from '../rpc/context';
import type { HubEvent } from '../events/hub';

/**
 * The fast path of a live subscription: once a subscription's tRPC id on its socket is
 * known, its hub events are written to the socket as the very frame tRPC's ws adapter
 * would send (`{"id":…,"jsonrpc":…,"result":{"type":"data","data":{"id":"<event id>",
 * "data":<event>},"id":"<event id>"}}`), the event's JSON encoded once for every
 * subscription. Through tRPC, each delivery resumed the subscription's generator, raced
 * promises and encoded the envelope per socket: about 100 µs of CPU and a heap of
 * garbage each, against 20 µs for the bare send (docs/benchmarks.md, live fan-out).
 * Everything else a subscription sends (its sync frame, replay, errors, stop) still
 * goes through tRPC.
 */

const sockets = new WeakMap<RequestMeta, WebSocket>();

/** Called for each live connection's context: its subscriptions write to `ws`. */
export function bindLiveSocket(req: RequestMeta, ws: WebSocket): void {
  sockets.set(req, ws);
}

export function liveSocketOf(req: RequestMeta): WebSocket | undefined {
  return sockets.get(req);
}

/**
 * tRPC does not tell a procedure its subscription id. A subscription learns it from
 * the first frame it yields: the yielded object is registered here, and the live
 * encoder, seeing that object in a response, hands over the response's id.
 */
type Claim = (id: unknown, jsonrpc: unknown) => void;
const claims = new WeakMap<object, Claim>();

export function claimOnSend(value: object, claim: Claim): void {
  claims.set(value, claim);
}

/** For the live encoder: every response passes here before it is encoded. */
export function noticeResponse(data: unknown): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return;
  const { id, jsonrpc, result } = data as {
    id?: unknown;
    jsonrpc?: unknown;
    result?: { type?: unknown; data?: { data?: unknown } };
  };
  const value = result?.type === 'data' ? result.data?.data : undefined;
  if (typeof value !== 'object' || value === null) return;
  const claim = claims.get(value);
  if (!claim) return;
  claims.delete(value);
  claim(id, jsonrpc);
}

/** The frame's start for one subscription, up to the event id (kept as long as it streams). */
export function frameHead(id: unknown, jsonrpc: unknown): string {
  return flatString(`${JSON.stringify({ id, jsonrpc }).slice(0, -1)},"result":{"type":"data","data":{"id":`);
}

/**
 * The same text in one piece, for strings a live connection keeps for its whole life. V8
 * keeps a string built by concatenation as a tree of its pieces: `crypto.randomUUID()`'s
 * is 16 of them, about 450 bytes against 60 for the flat string.
 */
export function flatString(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

const tails = new WeakMap<HubEvent, string>();

/** The frame's rest for one event, the same for every subscription (encoded once). */
export function frameTail(e: HubEvent): string {
  let tail = tails.get(e);
  if (tail === undefined) {
    const eid = JSON.stringify(String(e.id));
    tail = `${eid},"data":${JSON.stringify(e.event)}},"id":${eid}}}`;
    tails.set(e, tail);
  }
  return tail;
}
