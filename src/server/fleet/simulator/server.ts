import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { SimChains, type SimState } from './chain';
import { SIM_MIN_BLOCK_TIME_S } from './limits';
import { isKeymanagerPath, keymanagerAnswer } from './keymanager';
import { answer, coinAnswer } from './rpc';
import { simulatedNodeLog } from './node-log';

const NodeConfig = v.strictObject({
  nodeId: v.pipe(v.string(), v.regex(/^[\w.-]{1,64}$/)),
  coin: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,32}$/)),
  rpc: v.picklist(['bitcoin', 'dash', 'monero', 'evm']),
  blockTimeS: v.pipe(v.number(), v.minValue(SIM_MIN_BLOCK_TIME_S), v.maxValue(86_400)),
  syncSeconds: v.pipe(v.number(), v.minValue(0), v.maxValue(86_400)),
  registered: v.optional(v.boolean()),
  collateralSat: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  rewardSat: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  operatorPublic: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{96}$/))),
  validators: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          pubkey: v.pipe(v.string(), v.regex(/^0x[0-9a-f]{96}$/)),
          feeRecipient: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/)),
        }),
      ),
      v.maxLength(100),
    ),
  ),
  keymanagerToken: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{16,200}$/))),
  daemonVersion: v.optional(v.pipe(v.string(), v.regex(/^[\w.+-]{1,40}$/))),
});
const Force = v.strictObject({ status: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z_]{1,40}$/))) });
const SyncStall = v.strictObject({ stalled: v.boolean() });
const Penalty = v.strictObject({
  penalty: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000))),
});
const OperatorKey = v.strictObject({ secret: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) });
const Tx = v.strictObject({
  txid: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  coin: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,32}$/)),
  burnSat: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  /** Unix seconds of its block. */
  time: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export type SimulatorServer = { port: number; chains: SimChains; close(): Promise<void> };

/**
 * COIN-DAEMON SIMULATOR, HTTP side. One process serves many simulated nodes:
 *   /n/<nodeId>/...            the node's RPC (family-specific, see rpc.ts); a validator's
 *                              Keymanager API too (/eth/v1/keystores, .../feerecipient, .../voluntary_exit:
 *                              keymanager.ts); POST /eth/v1/beacon/pool/voluntary_exits starts its exit
 *   (the demo's deposit of a validator: /admin/nodes/<id>/register)
 *   /admin/nodes               POST add (idempotent)      GET list
 *   /admin/nodes/<id>          DELETE remove
 *   /admin/nodes/<id>/register POST: the node is registered on its network
 *   /admin/nodes/<id>/force    POST {status}: force a network status (null clears)
 *   /admin/nodes/<id>/pose     POST {penalty}: force a PoSe penalty score (null clears)
 *   /admin/nodes/<id>/sync     POST {stalled}: stop the node's sync where it is (true) or let it go on (false)
 *   /admin/nodes/<id>/operator-key POST {secret}: the node restarted with the owner's
 *                              operator key (quick setup): it takes that key and is registered
 *   /admin/txs                 POST {txid, coin, burnSat, time}: a transaction getrawtransaction finds
 *   /c/<coin>/                 chain-wide JSON-RPC of a coin (getrawtransaction, getblockcount)
 *   /admin/health              GET
 * State is saved to `stateFile` after each change, so a restarted simulator brings its
 * nodes back.
 */
export async function startSimulator(opts: {
  host?: string;
  port?: number;
  stateFile: string;
  log?: (line: string) => void;
}): Promise<SimulatorServer> {
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  let state: SimState | null = null;
  try {
    state = JSON.parse(fs.readFileSync(opts.stateFile, 'utf8')) as SimState;
  } catch {
    // First start, or an unreadable file: a fresh simulated world.
  }
  const chains = state ? new SimChains(state) : SimChains.fresh();

  const save = () => {
    fs.mkdirSync(path.dirname(opts.stateFile), { recursive: true });
    const tmp = `${opts.stateFile}.tmp`;
    // It holds the nodes' Keymanager tokens and operator secrets: its owner's only. The
    // mode applies to a file writeFileSync creates, hence no stale temporary first.
    fs.rmSync(tmp, { force: true });
    fs.writeFileSync(tmp, JSON.stringify(chains.state), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, opts.stateFile);
  };
  save();

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  function admin(method: string, parts: string[], body: unknown, res: http.ServerResponse) {
    if (parts[0] === 'health')
      return send(res, 200, { ok: true, simulator: true, nodes: Object.keys(chains.state.nodes).length });
    if (parts[0] === 'txs' && method === 'POST') {
      const t = v.safeParse(Tx, body);
      if (!t.success)
        return send(res, 400, { error: t.issues.map((i) => `${v.getDotPath(i) ?? ''}: ${i.message}`).join('; ') });
      chains.state.txs = { ...chains.state.txs, [t.output.txid]: t.output };
      save();
      return send(res, 200, { ok: true });
    }
    if (parts[0] !== 'nodes') return send(res, 404, { error: 'unknown admin path' });
    const [, id, action] = parts;
    if (!id) {
      if (method === 'GET') return send(res, 200, { nodes: Object.keys(chains.state.nodes) });
      if (method !== 'POST') return send(res, 405, { error: 'POST or GET' });
      const cfg = v.safeParse(NodeConfig, body);
      if (!cfg.success)
        return send(res, 400, { error: cfg.issues.map((i) => `${v.getDotPath(i) ?? ''}: ${i.message}`).join('; ') });
      chains.add(cfg.output);
      save();
      log(JSON.stringify({ simulator: true, msg: 'node added', node: cfg.output.nodeId, coin: cfg.output.coin }));
      return send(res, 200, { ok: true });
    }
    const node = chains.get(id);
    if (!node) return send(res, 404, { error: `no simulated node ${id}` });
    if (!action && method === 'DELETE') {
      chains.remove(id);
      save();
      log(JSON.stringify({ simulator: true, msg: 'node removed', node: id }));
      return send(res, 200, { ok: true });
    }
    if (action === 'register' && method === 'POST') {
      node.registeredAt ??= Date.now();
      save();
      return send(res, 200, { ok: true });
    }
    if (action === 'force' && method === 'POST') {
      const f = v.safeParse(Force, body);
      if (!f.success) return send(res, 400, { error: 'body must be {"status": "UPPER_CASE" | null}' });
      node.forcedStatus = f.output.status;
      save();
      return send(res, 200, { ok: true });
    }
    if (action === 'pose' && method === 'POST') {
      const p = v.safeParse(Penalty, body);
      if (!p.success) return send(res, 400, { error: 'body must be {"penalty": whole number | null}' });
      node.forcedPenalty = p.output.penalty;
      save();
      return send(res, 200, { ok: true });
    }
    if (action === 'sync' && method === 'POST') {
      const st = v.safeParse(SyncStall, body);
      if (!st.success) return send(res, 400, { error: 'body must be {"stalled": true | false}' });
      // Resumed, it is where its linear catch-up would have it: the stall ends with a jump forward.
      if (st.output.stalled) node.stalledAt ??= chains.height(node);
      else node.stalledAt = null;
      save();
      return send(res, 200, { ok: true });
    }
    if (action === 'log' && method === 'GET') {
      const tail = Number(parts[3]);
      if (!Number.isInteger(tail) || tail < 1 || tail > 2000) return send(res, 400, { error: 'tail: 1 to 2000 lines' });
      return send(res, 200, { lines: simulatedNodeLog(chains, node, tail) });
    }
    if (action === 'operator-key' && method === 'POST') {
      const k = v.safeParse(OperatorKey, body);
      if (!k.success) return send(res, 400, { error: 'body must be {"secret": 64 hex digits}' });
      // What a restart with the owner's key does on a real node whose protx the owner's
      // wallet already put on-chain (protx quick_setup): it runs as that registration.
      node.blsSecret = k.output.secret;
      node.registeredAt ??= Date.now();
      save();
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { error: 'unknown admin call' });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 64 * 1024) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      let body: unknown = undefined;
      if (chunks.length) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(res, 400, { result: null, error: { code: -32700, message: 'Parse error' }, id: null });
        }
      }
      const url = new URL(req.url ?? '/', 'http://sim');
      const parts = url.pathname.split('/').filter(Boolean);
      if (parts[0] === 'admin') return admin(req.method ?? 'GET', parts.slice(1), body, res);
      if (parts[0] === 'n' && parts[1]) {
        const node = chains.get(decodeURIComponent(parts[1]));
        if (!node) return send(res, 404, { error: `no simulated node ${parts[1]}` });
        const p = `/${parts.slice(2).join('/')}`;
        // A validator node's Keymanager API (its validator client's) beside its beacon API.
        const reply =
          node.rpc === 'evm' && isKeymanagerPath(p)
            ? keymanagerAnswer(node, req.method ?? 'GET', p, body, req.headers.authorization, chains)
            : answer(chains, node, req.method ?? 'GET', p, body);
        if (reply.changed) save();
        return send(res, reply.status, reply.body);
      }
      if (parts[0] === 'c' && parts[1] && /^[a-z0-9]{1,32}$/.test(parts[1]) && parts.length === 2) {
        const reply = coinAnswer(chains, parts[1], req.method ?? 'GET', body);
        return send(res, reply.status, reply.body);
      }
      send(res, 404, { error: 'not found' });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    chains,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
