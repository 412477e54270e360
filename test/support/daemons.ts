import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { bundledCatalogPath } from '../../src/server/coins/import';
import { bitcoinCall } from '../../src/server/fleet/daemons/bitcoin';
import { DaemonError, type Auth } from '../../src/server/fleet/daemons/http';
import type { DaemonSpec, RpcEndpoint } from '../../src/server/fleet/engine';
export { waitFor } from './wait';
import { fill, loadProfiles, type BinaryProfile } from '../../src/server/fleet/profiles';
import { freePort } from '../../src/server/nodes/daemon-spec';

export const profiles = loadProfiles(bundledCatalogPath('daemons.json'));

export const haveBinary = (p: string) => fs.existsSync(p);

/** A spec for a real daemon from its catalog profile, with fresh ports and a config file written. */
export async function realDaemonSpec(
  profileId: 'litecoind-regtest' | 'monerod-regtest',
  nodeId: string,
  dataRoot: string,
): Promise<{ spec: DaemonSpec; auth: { user: string; password: string } }> {
  const profile = profiles[profileId] as BinaryProfile;
  const ports: Record<string, number> = {};
  for (const name of profile.ports) ports[name] = await freePort();
  const dataDir = path.join(dataRoot, nodeId);
  const auth = { user: 'test', password: `pw-${nodeId}` };
  const values = { data: dataDir, ports, rpcUser: auth.user, rpcPassword: auth.password };
  fs.mkdirSync(dataDir, { recursive: true });
  if (profile.config && profile.config_file)
    fs.writeFileSync(path.join(dataDir, profile.config_file), fill(profile.config, values));
  return {
    auth,
    spec: {
      nodeId,
      ownerId: 1,
      coinId: profileId.split('-')[0],
      plan: 'dedicated',
      program: profile.program,
      args: profile.args.map((a) => fill(a, values)),
      ports,
      rpcPort: profile.rpc_port ?? profile.ports[0],
      dataDir,
      limits: { memoryBytes: 0, cpus: 0 },
    },
  };
}

/**
 * How long a real daemon may take for anything (start, answer, create a wallet) on a
 * loaded two-core machine. Generous on purpose: a healthy run takes a fraction of it,
 * and a failure still reports the daemon's own last answer.
 */
export const DAEMON_BUDGET_MS = 60_000;
/** One RPC attempt's deadline within the budget (litecoind's createwallet fills a 1,000-key pool). */
export const ATTEMPT_MS = 20_000;

/** How long to keep trying in all, and how long one try may take. */
export type Budget = { budgetMs?: number; attemptMs?: number };

/** A daemon that is starting, busy or slow: worth another try. Anything else is a real answer. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof DaemonError)) return false;
  if (err.kind === 'timeout' || err.kind === 'unreachable') return true;
  // -28: "Loading block index…", "Verifying blocks…", "Rescanning…" while the daemon warms up.
  return err.kind === 'rpc-error' && /\(-28\)/.test(err.message);
}

/**
 * Runs `attempt` (given its own deadline) until it succeeds or `budgetMs` is spent,
 * retrying only transient failures. It never hides an error: a permanent one is thrown
 * at once, and when the budget runs out the last one is thrown with the count of tries.
 */
export async function withinBudget<T>(
  what: string,
  attempt: (deadlineMs: number) => Promise<T>,
  opts: Budget & { retryIf?: (err: unknown) => boolean } = {},
): Promise<T> {
  const budget = opts.budgetMs ?? DAEMON_BUDGET_MS;
  const attemptMs = opts.attemptMs ?? ATTEMPT_MS;
  const retryIf = opts.retryIf ?? isTransient;
  const start = Date.now();
  for (let tries = 1; ; tries++) {
    const left = budget - (Date.now() - start);
    try {
      return await attempt(Math.max(Math.min(1_000, attemptMs), Math.min(attemptMs, left)));
    } catch (err) {
      const spent = Date.now() - start;
      if (!retryIf(err)) throw new Error(`${what} failed: ${(err as Error).message}`, { cause: err });
      if (spent >= budget)
        throw new Error(
          `${what} still failing after ${spent} ms and ${tries} tries; last error: ${(err as Error).message}`,
          { cause: err },
        );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Where a bitcoin-family daemon answers; a function when the endpoint may move (a restart). */
export type RpcTarget =
  { endpoint: RpcEndpoint; auth?: Auth } | (() => Promise<{ endpoint: RpcEndpoint; auth?: Auth }>);

/** One JSON-RPC call, retried within the budget while the daemon is starting or slow. */
export function rpc<T>(
  target: RpcTarget,
  method: string,
  params: unknown[],
  schema: v.GenericSchema<unknown, T>,
  budget: Budget = {},
): Promise<T> {
  return withinBudget(
    `${method} ${JSON.stringify(params)}`,
    async (timeoutMs) =>
      bitcoinCall({ ...(typeof target === 'function' ? await target() : target), timeoutMs }, method, params, schema),
    budget,
  );
}

/**
 * A loaded wallet named `name`, however earlier tries ended. createwallet is not
 * idempotent: a try that timed out here may still finish in the daemon, and the next
 * one is then told the wallet exists. So each try first asks which wallets are loaded.
 */
export async function ensureWallet(target: RpcTarget, name: string, budget: Budget = {}): Promise<void> {
  await withinBudget(
    `createwallet ${name}`,
    async (timeoutMs) => {
      const t = { ...(typeof target === 'function' ? await target() : target), timeoutMs };
      if ((await bitcoinCall(t, 'listwallets', [], v.array(v.string()))).includes(name)) return;
      try {
        await bitcoinCall(t, 'createwallet', [name], v.unknown());
      } catch (err) {
        // -4 "Database already exists": made by a try that timed out here, not loaded now.
        if (err instanceof DaemonError && /already exists/i.test(err.message))
          await bitcoinCall(t, 'loadwallet', [name], v.unknown());
        else throw err;
      }
      // "already being loaded" / "already loaded": the timed-out try is still at work; the
      // next try's listwallets sees its wallet once it is done.
    },
    {
      ...budget,
      retryIf: (err) => isTransient(err) || (err instanceof DaemonError && /already (being )?load/i.test(err.message)),
    },
  );
}

const Height = v.pipe(v.number(), v.integer(), v.minValue(0));

/**
 * Mines regtest blocks until the chain is `height` blocks high, and answers the height:
 * all in one call when nothing goes wrong (an observer sees the new height at once).
 * generatetoaddress is not idempotent either: after a failed try the height is read
 * again and only the rest is mined, so only a try that timed out here and still
 * finished in the daemon could add blocks too many (the caller's check shows it).
 */
export async function mineTo(target: RpcTarget, height: number, budget: Budget = {}): Promise<number> {
  const address = await rpc(target, 'getnewaddress', [], v.string(), budget);
  return withinBudget(
    `mining to height ${height}`,
    async (timeoutMs) => {
      const t = { ...(typeof target === 'function' ? await target() : target), timeoutMs };
      for (;;) {
        const now = await bitcoinCall(t, 'getblockcount', [], Height);
        if (now >= height) return now;
        await bitcoinCall(t, 'generatetoaddress', [height - now, address], v.array(v.string()));
      }
    },
    budget,
  );
}

/** Pids of processes whose command line contains `marker` (to prove nothing is left running). */
export function pidsMatching(marker: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A throwaway litecoind in `dir` with a regtest chain of `height` blocks: an RPC target, its
 * P2P port (a peer other nodes can sync from), and `stop`, which waits for it to exit.
 */
export async function regtestChain(dir: string, height: number) {
  const { spec, auth } = await realDaemonSpec('litecoind-regtest', 'chainmaker', dir);
  const child = spawn(spec.program, spec.args, { stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  const target = { endpoint: { host: '127.0.0.1', port: spec.ports.rpc }, auth };
  const stop = async () => {
    try {
      await rpc(target, 'stop', [], v.unknown());
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
  };
  try {
    await ensureWallet(target, 'miner');
    if ((await mineTo(target, height)) !== height) throw new Error(`the chain is not ${height} blocks high`);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  /** Its block headers from height 1 up, serialized (what `submitheader` takes). */
  const headers = async () => {
    const out: string[] = [];
    for (let h = 1; h <= height; h++) {
      const hash = await rpc(target, 'getblockhash', [h], v.string());
      out.push(await rpc(target, 'getblockheader', [hash, false], v.string()));
    }
    return out;
  };
  return { target, dataDir: spec.dataDir, p2pPort: spec.ports.p2p, headers, stop };
}

/**
 * A regtest chain of `height` blocks made by a throwaway litecoind in `dir`, as a tar.gz of
 * its blocks and chainstate (what a coin's chain snapshot holds): the archive's path.
 */
export async function regtestSnapshot(dir: string, height: number): Promise<string> {
  const chain = await regtestChain(dir, height);
  await chain.stop();
  const out = path.join(dir, `regtest-${height}.tar.gz`);
  execFileSync('tar', ['-czf', out, '-C', chain.dataDir, 'regtest/blocks', 'regtest/chainstate']);
  return out;
}
