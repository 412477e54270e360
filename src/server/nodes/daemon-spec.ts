import net from 'node:net';
import path from 'node:path';
import type { CoinRecord, Host, Masternode } from '../db/schema';
import { familyOf } from '../../shared/families';
import { coinDetails } from '../coins/catalog';
import { nodeRewardAtomic } from '../../shared/roi';
import { coinNode, withArticle } from '../../shared/english';
import { blsPublicKeyOf } from './output-read';
import { coinsToSat } from '../fleet/daemons/amounts';
import { versionedImage } from '../fleet/daemon-version';
import type { DaemonFile, DaemonSpec } from '../fleet/engine';
import { SIMULATOR_PROGRAM } from '../fleet/engines/local';
import { fill, type DaemonProfile } from '../fleet/profiles';
import { simulatedBlockTimeS } from '../fleet/simulator/limits';
import { bothProcessesScript, normalPubkey, validatorFiles, type ValidatorRun } from '../fleet/validator-client';

export const PLAN_LIMITS = {
  dedicated: { memoryBytes: 2 * 1024 ** 3, cpus: 1 },
  cloud: { memoryBytes: 512 * 1024 ** 2, cpus: 0.5 },
} as const;

/** A port nothing listens on right now (the kernel's pick), on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Can a daemon on this machine listen on `port` (every interface)? False when something holds it. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    // No host: the wildcard of both families, what a daemon's bind=0.0.0.0 meets too.
    srv.listen(port, () => srv.close(() => resolve(true)));
  });
}

function satoshisOrUndefined(coins: string): number | undefined {
  try {
    return coinsToSat(coins);
  } catch {
    return undefined;
  }
}

/** Container-side ports are fixed per profile (nothing else runs in the container). */
const CONTAINER_PORT_BASE = 20_000;

/**
 * The engine's instructions for one node: which program or image, with which
 * arguments, ports, data folder and files (a real daemon's config file).
 */
/**
 * The line that gives a real daemon the node's operator / masternode key, put before any
 * network section (`[main]`), with the profile's `operator_key_lines` (e.g. PIVX's
 * masternode=1) that the daemon needs beside the key and cannot start with alone.
 */
export function withOperatorKey(
  config: string,
  option: string | undefined,
  key: string | null | undefined,
  keyLines: string[] = [],
): string {
  if (!option || !key) return config;
  if (!/^[\w+/=:.-]{1,200}$/.test(key)) throw new Error(`the node's ${option} is not a single word`);
  const lines = config.split('\n');
  const section = lines.findIndex((l) => l.startsWith('['));
  const end = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  lines.splice(section < 0 ? end : section, 0, ...keyLines, `${option}=${key}`);
  return lines.join('\n');
}

/**
 * `operatorKey`: the key the node signs with as a masternode (the operator BLS secret, a
 * classic masternode key, DFI's operator address), written under the profile's
 * `operator_key_option`; the config file is a 0600 file (`spec.files`), never an
 * argument, and never logged. `ports`: the ones a provisioned node already has.
 */
export async function buildSpec(
  node: Masternode,
  coin: CoinRecord,
  profile: DaemonProfile,
  host: Host,
  fleetDataDir: string,
  opts: {
    operatorKey?: string | null;
    ports?: Record<string, number>;
    /** EVM validators: what the validator client runs with. */
    validator?: ValidatorRun | null;
    /** Another daemon version than the profile's (an upgrade): daemon-version.ts says where that is possible. */
    daemonVersion?: string | null;
  } = {},
): Promise<{ spec: DaemonSpec; ports: Record<string, number> }> {
  const base = {
    nodeId: node.mn_id,
    ownerId: node.user_id,
    coinId: coin.id,
    plan: node.package,
    limits: PLAN_LIMITS[node.package],
  };
  if (profile.run === 'simulator') {
    const reward = coinDetails(coin).reward;
    const operatorPublic = profile.rpc === 'dash' ? blsPublicKeyOf(node.output_text) : null;
    return {
      ports: {},
      spec: {
        ...base,
        program: SIMULATOR_PROGRAM,
        args: [],
        ports: {},
        rpcPort: 'rpc',
        dataDir: path.join(fleetDataDir, 'data', node.mn_id),
        simulated: {
          rpc: profile.rpc,
          blockTimeS: simulatedBlockTimeS(reward.block_time_s, profile.time_scale),
          syncSeconds: profile.sync_seconds,
          // A family with no start step is on its network as soon as it has synced.
          ...(familyOf(coin.family).startsAlone ? { registered: true } : {}),
          // Beyond 2^53 satoshis (90 million coins) the simulator keeps its default collateral.
          collateralSat: satoshisOrUndefined(coin.collateral),
          rewardSat: nodeRewardAtomic(reward),
          // The key the owner's registration names (a real node has it in its config).
          ...(operatorPublic ? { operatorPublic } : {}),
          // The simulator stands in for the validator client too (its Keymanager API).
          ...(profile.rpc === 'evm' && opts.validator
            ? {
                validators: [
                  { pubkey: normalPubkey(opts.validator.pubkey), feeRecipient: opts.validator.feeRecipient },
                ],
                keymanagerToken: opts.validator.token,
              }
            : {}),
          ...(opts.daemonVersion ? { daemonVersion: opts.daemonVersion } : {}),
        },
      },
    };
  }
  const docker = host.engine === 'docker';
  const ports: Record<string, number> = {};
  // A node already provisioned keeps the ports its engine has (a config rewritten for a restart).
  for (const [i, name] of profile.ports.entries())
    ports[name] = opts.ports?.[name] ?? (docker ? CONTAINER_PORT_BASE + i : await freePort());
  // A real masternode listens on its coin's port and is announced as public address:port
  // (placement gave the node an address where that port is free).
  let publish: DaemonSpec['publish'];
  if (profile.p2p_port !== undefined) {
    if (!node.server_ip)
      throw new Error(
        `node ${node.mn_id}: ${withArticle(coinNode(coin.label))} needs a public IPv4 for its P2P port ${profile.p2p_port}`,
      );
    ports.p2p = profile.p2p_port;
    publish = [
      {
        port: 'p2p',
        hostIps: [node.server_ip, ...(node.server_ip6 ? [node.server_ip6] : [])],
        hostPort: profile.p2p_port,
      },
    ];
  }
  const dataDir = docker ? '/data' : path.join(fleetDataDir, 'data', node.mn_id);
  // RPC stays on loopback for a daemon on this machine; in a container it must listen on
  // the container's interface, and the engine publishes it on loopback or the host's address.
  const rpcBind = docker ? { bind: '0.0.0.0', allow: '0.0.0.0/0' } : { bind: '127.0.0.1', allow: '127.0.0.1' };
  const values = {
    data: dataDir,
    ports,
    rpcUser: node.rpc_user ?? '',
    rpcPassword: node.rpc_password ?? '',
    publicIp: node.server_ip ?? undefined,
    rpcBind,
    feeRecipient: opts.validator?.feeRecipient,
  };
  let args = profile.args.map((a) => fill(a, values));
  // The config file travels as a file in the data folder for both engines (its
  // `-conf=<path>` argument names it): it may hold the operator key, which must never be an
  // argument or an environment variable, both readable by anyone on the host.
  const files: DaemonFile[] = [];
  if (profile.config && profile.config_file) {
    files.push({
      name: profile.config_file,
      content: withOperatorKey(
        fill(profile.config, values),
        profile.operator_key_option,
        opts.operatorKey,
        profile.operator_key_lines,
      ),
      mode: 0o600,
    });
  }
  // Its own key file (Energi's P2P node key): like the config, a 0600 file, never an argument.
  if (profile.node_key_file && opts.operatorKey)
    files.push({ name: profile.node_key_file, content: opts.operatorKey, mode: 0o600 });
  let program = docker ? profile.image! : profile.program;
  if (opts.daemonVersion && opts.daemonVersion !== profile.version) {
    const image = docker ? versionedImage(profile, opts.daemonVersion) : null;
    if (!image)
      throw new Error(
        `node ${node.mn_id}: ${docker ? `the image ${profile.image} is not tagged with its version` : 'a daemon run from a path on this machine'} cannot run version ${opts.daemonVersion}`,
      );
    program = image;
  }
  const vc = profile.validator_client;
  if (vc) {
    // A validator is run, not only watched: its client beside the beacon node, holding
    // the keystore through 0600 files in the data folder.
    if (!opts.validator)
      throw new Error(
        `node ${node.mn_id}: ${withArticle(`${coin.label} validator`)} needs its keystore to run its validator client`,
      );
    files.push(...validatorFiles(dataDir, opts.validator));
    // On this machine the daemon's own path; in the image, its name on PATH.
    const local = (argv: string[]) =>
      !docker && argv[0] === path.basename(profile.program) ? [profile.program, ...argv.slice(1)] : argv;
    const script = bothProcessesScript(local(args), local(vc.args.map((a) => fill(a, values))));
    program = docker ? program : '/bin/bash';
    args = docker ? ['bash', '-c', script] : ['-c', script];
  }
  return {
    ports,
    spec: {
      ...base,
      program,
      args,
      ports,
      rpcPort: profile.rpc_port ?? profile.ports[0],
      dataDir,
      ...(files.length ? { files } : {}),
      ...(publish ? { publish } : {}),
    },
  };
}
