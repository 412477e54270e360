import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { FAMILIES, familyOf } from '../../shared/families';
import { RENAMABLE_CALLS } from './daemons/jsonrpc';
import { plainFileName } from './engine';

/**
 * Daemon profiles (catalog/daemons.json): how a kind of coin daemon runs — simulator,
 * or a real binary/image with its arguments, config file, ports and RPC family.
 */
const Port = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,15}$/));
/**
 * How the monitor reads the collateral address's wallet activity (the Earnings and Exits
 * cards): `address_index` through the daemon's address index (`getaddressbalance`,
 * `getaddressdeltas`: dashd and forks run with addressindex=1), `watch_wallet` through a
 * key-less watch-only wallet on the daemon (`importaddress`: litecoind and daemons
 * without an address index), `none` where the daemon cannot say. Absent means `none`.
 */
const Activity = v.optional(v.picklist(['address_index', 'watch_wallet', 'none']));
export type ActivityWay = 'address_index' | 'watch_wallet' | 'none';
const Simulated = v.strictObject({
  run: v.literal('simulator'),
  rpc: v.picklist(['bitcoin', 'dash', 'monero', 'evm']),
  flavour: v.optional(v.picklist(['dash', 'classic', 'none'])),
  activity: Activity,
  sync_seconds: v.pipe(v.number(), v.minValue(0)),
  /** Simulated chains run this many times faster than the coin's real block time (demos, tests). */
  time_scale: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(10_000)), 1),
});
/**
 * A validator client run beside the daemon (EVM validators: Lighthouse's `vc` beside its
 * beacon node). It holds the node's keystore through files the platform places in the
 * data folder (fleet/validator-client.ts), never through its arguments.
 */
const ValidatorClient = v.strictObject({
  about: v.optional(v.string()),
  source: v.optional(v.string()),
  /** Its command line; {data}, {port:NAME}, {rpc_bind} and {fee_recipient} are filled per node. */
  args: v.pipe(v.array(v.string()), v.minLength(1)),
  /** The profile port its Keymanager API (Bearer token) listens on. */
  keymanager_port: Port,
});
const Binary = v.pipe(
  v.strictObject({
    run: v.literal('binary'),
    /** What the operator runs, in words: the real daemon, what it needs besides, what is not checked. */
    about: v.optional(v.string()),
    /** Where the name, version and ports come from, and how sure they are. */
    source: v.optional(v.string()),
    /** Coins of catalog/coins.json this daemon serves in production (a coin still runs on its family's simulator unless it names the profile). */
    coins: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9]{1,32}$/)))),
    version: v.optional(v.string()),
    program: v.pipe(v.string(), v.minLength(1)),
    image: v.optional(v.string()),
    /** `other`: the daemon speaks an RPC the platform has no reader for yet (its nodes are watched by the engine only). */
    rpc: v.picklist(['bitcoin', 'monero', 'evm', 'other']),
    flavour: v.picklist(['dash', 'classic', 'none']),
    activity: Activity,
    ports: v.pipe(v.array(Port), v.minLength(1)),
    rpc_port: v.optional(Port),
    /**
     * The coin's fixed P2P port: a masternode is announced to its network as
     * address:port, so the daemon listens on this port and the host publishes it on the
     * node's own public address (profile port "p2p").
     */
    p2p_port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535))),
    /**
     * What one node needs of its host: disk (GB, the chain with a year's growth) and memory
     * (GB). Placement puts it only on a host that reported both and has them uncommitted.
     */
    resources: v.optional(
      v.strictObject({
        disk_gb: v.pipe(v.number(), v.minValue(0.1), v.maxValue(100_000)),
        memory_gb: v.pipe(v.number(), v.minValue(0.05), v.maxValue(4_096)),
      }),
    ),
    /**
     * A chain snapshot the operator provides (their own copy of one the coin's project
     * publishes): a new node starts from it once its SHA-256 matches (fleet/bootstrap.ts).
     */
    bootstrap: v.optional(
      v.strictObject({
        url: v.pipe(
          v.string(),
          v.url('bootstrap.url must be a URL'),
          v.regex(/^https?:\/\//, 'bootstrap.url must be an http or https URL'),
        ),
        sha256: v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/, 'bootstrap.sha256 must be 64 hex characters')),
      }),
    ),
    /** Monero-type: Oxen's "service node" calls or Beldex's "master node" calls (`get_{word}_node_key`, `register_{word}_node`). */
    node_word: v.optional(v.picklist(['service', 'master'])),
    /** The config option that takes the node's operator / masternode key, once the node has one. */
    operator_key_option: v.optional(v.pipe(v.string(), v.regex(/^[a-z_]{1,40}$/))),
    /**
     * A daemon that takes its key from a file of its own rather than a config option (Energi's
     * `--nodekey {data}/<file>`): the node's key is written there as a 0600 file.
     */
    node_key_file: v.optional(
      v.pipe(
        v.string(),
        v.check(plainFileName, 'node_key_file must be a plain file name (no folders, not starting with a dot)'),
      ),
    ),
    /**
     * Config lines written together with the operator key, never without it: PIVX reads
     * mnoperatorprivatekey only with masternode=1, SIN infinitynodeprivkey only with
     * infinitynode=1, and either daemon refuses to start with the line but no key.
     */
    operator_key_lines: v.optional(v.array(v.pipe(v.string(), v.regex(/^[a-z_]{1,40}=[\w.:-]{1,100}$/)))),
    /**
     * The daemon's own names for the platform's calls it names otherwise, e.g.
     * `{"masternode status": "getmasternodestatus"}`; null for a call it does not have
     * and the platform can do without (Firo's `gobject list`: no governance).
     */
    calls: v.optional(
      v.pipe(
        v.record(
          v.picklist(RENAMABLE_CALLS),
          v.nullable(v.pipe(v.string(), v.regex(/^[a-z_]{1,40}( [a-z_]{1,40})?$/))),
        ),
        v.check((c) => c['masternode status'] !== null, 'every daemon has a status call'),
      ),
    ),
    args: v.array(v.string()),
    config_file: v.optional(
      v.pipe(
        v.string(),
        v.check(plainFileName, 'config_file must be a plain file name (no folders, not starting with a dot)'),
      ),
    ),
    config: v.optional(v.string()),
    validator_client: v.optional(ValidatorClient),
  }),
  v.check((p) => p.p2p_port === undefined || p.ports.includes('p2p'), 'a profile with p2p_port must name a "p2p" port'),
  v.check(
    (p) => (p.activity ?? 'none') === 'none' || p.rpc === 'bitcoin',
    'only a bitcoin-family daemon can read wallet activity',
  ),
  // An address index the daemon does not keep would fail every read: say so at start-up instead.
  v.check(
    (p) =>
      p.activity !== 'address_index' || /^addressindex=1$/m.test(p.config ?? '') || p.args.includes('-addressindex=1'),
    'activity "address_index" needs addressindex=1 in the profile\'s config',
  ),
  v.check(
    (p) => !p.operator_key_lines || !!p.operator_key_option,
    'operator_key_lines are written with the key: the profile needs an operator_key_option',
  ),
  v.check(
    (p) => !p.validator_client || p.ports.includes(p.validator_client.keymanager_port),
    "a validator client's keymanager_port must be one of the profile's ports",
  ),
);
const Profile = v.variant('run', [Simulated, Binary]);
const ProfilesFile = v.strictObject({
  version: v.literal(1),
  about: v.optional(v.string()),
  profiles: v.record(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/)), Profile),
});

export type DaemonProfile = v.InferOutput<typeof Profile>;
export type SimulatedProfile = v.InferOutput<typeof Simulated>;
export type BinaryProfile = v.InferOutput<typeof Binary>;
export type ValidatorClientProfile = v.InferOutput<typeof ValidatorClient>;

/** How a profile reads wallet activity (absent: it does not). */
export const activityWay = (p: DaemonProfile): ActivityWay =>
  p.rpc === 'monero' || p.rpc === 'evm' || p.rpc === 'other' ? 'none' : (p.activity ?? 'none');

/**
 * The simulator profile a coin gets when its catalog entry names none: the one that
 * speaks its family's RPC (families.ts `simulatedRpc`). The family is the registry's
 * knowledge; the fleet knows only which profile serves which RPC.
 */
export const simulatorProfileId = (family: string) => `simulator-${familyOf(family).simulatedRpc}`;
const SIMULATOR_PROFILES = [...new Set(FAMILIES.map(simulatorProfileId))];

export function loadProfiles(file: string): Record<string, DaemonProfile> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${path.basename(file)}: ${(err as Error).message}`);
  }
  const r = v.safeParse(ProfilesFile, raw);
  if (!r.success)
    throw new Error(r.issues.map((i) => `${path.basename(file)}.${v.getDotPath(i) ?? ''}: ${i.message}`).join('\n'));
  for (const f of SIMULATOR_PROFILES)
    if (!r.output.profiles[f]) throw new Error(`${path.basename(file)}: profile ${f} is missing`);
  return r.output.profiles;
}

/** The production profile that names `coinId` among its coins, if any. */
export function productionProfile(
  profiles: Record<string, DaemonProfile>,
  coinId: string,
): { id: string; profile: BinaryProfile } | null {
  for (const [id, p] of Object.entries(profiles))
    if (p.run === 'binary' && p.coins?.includes(coinId)) return { id, profile: p };
  return null;
}

/** Fills {data}, {port:NAME}, {rpc_user}, {rpc_password}, {public_ip}, {fee_recipient} in a profile's argument or config text. */
export function fill(
  text: string,
  values: {
    data: string;
    ports: Record<string, number>;
    rpcUser: string;
    rpcPassword: string;
    publicIp?: string;
    rpcBind?: { bind: string; allow: string };
    feeRecipient?: string;
  },
): string {
  return text.replace(
    /\{(data|rpc_user|rpc_password|public_ip|rpc_bind|rpc_allow|fee_recipient|port:([a-z0-9_]+))\}/g,
    (m, key: string, port?: string) => {
      if (key === 'data') return values.data;
      if (key === 'fee_recipient') {
        if (!values.feeRecipient) throw new Error('profile uses {fee_recipient} but the node has none');
        return values.feeRecipient;
      }
      if (key === 'rpc_bind') return values.rpcBind?.bind ?? '127.0.0.1';
      if (key === 'rpc_allow') return values.rpcBind?.allow ?? '127.0.0.1';
      if (key === 'rpc_user') return values.rpcUser;
      if (key === 'rpc_password') return values.rpcPassword;
      if (key === 'public_ip') {
        if (!values.publicIp) throw new Error('profile uses {public_ip} but the node has no public address');
        return values.publicIp;
      }
      const p = port ? values.ports[port] : undefined;
      if (p === undefined) throw new Error(`profile uses ${m} but assigns no such port`);
      return String(p);
    },
  );
}
