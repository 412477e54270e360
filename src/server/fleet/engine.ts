import { statfs } from 'node:fs/promises';

/**
 * How the fleet runs a coin daemon, whatever runs it: child processes on this machine
 * (`local`) or containers on any Docker Engine API (`docker`: Docker or Podman hosts).
 * The fleet service only speaks this interface.
 */

/**
 * A file the daemon reads from its data folder (its config file, which may hold the
 * node's operator key). Files travel apart from the arguments and the environment, which
 * anyone on the host can read (`ps`, `docker inspect`); they are written with `mode`.
 */
export type DaemonFile = { name: string; content: string; mode: number };

/**
 * Is `name` a plain file name, one that stays inside the folder it is put in? Letters,
 * digits, `_`, `-` and `.`, not starting with a dot (no `.`, `..` nor hidden files), at
 * most 100 characters (a tar header's name field). The one rule for every file the
 * fleet places (engines, the profiles' config_file).
 */
export function plainFileName(name: string): boolean {
  return /^[\w-][\w.-]{0,99}$/.test(name);
}

/** What to run for one node. Built by the fleet from the catalog's daemon profile. */
export type DaemonSpec = {
  /** The node's stable id (nodes.mn_id): names the process/container and its data. */
  nodeId: string;
  /** Owner's user id, for container labels and logs. */
  ownerId: number;
  coinId: string;
  plan: 'dedicated' | 'cloud';
  /** Executable (local engine) or image (docker engine). */
  program: string;
  args: string[];
  env?: Record<string, string>;
  /** Ports the daemon listens on inside its process/container, by name ("rpc", "p2p"). */
  ports: Record<string, number>;
  /** Which of `ports` answers the platform's RPC calls. */
  rpcPort: string;
  /**
   * Ports the network must reach on fixed public addresses (a masternode's P2P port):
   * the docker engine publishes `ports[port]` on each of `hostIps` at `hostPort`; the local
   * engine's daemon binds it itself. Other ports stay on the engine's private binding.
   */
  publish?: Array<{ port: string; hostIps: string[]; hostPort: number }>;
  /** Folder (local) or volume mount point (docker) for the chain data. */
  dataDir: string;
  /**
   * Placed in `dataDir` by `create`, before the daemon first starts (and again by
   * `writeFiles`). Engines never log them and keep no copy in their own records.
   */
  files?: DaemonFile[];
  /**
   * A checked chain snapshot on the machine running Nodekeep (fleet/bootstrap.ts), unpacked
   * into the data folder when `create` makes the node, before `files`: the daemon starts
   * from it instead of from the genesis block. A node that exists already keeps its data.
   */
  seed?: string;
  /** Resource limits by plan (docker engine; the local engine only records them). */
  limits: { memoryBytes: number; cpus: number };
  /** For nodes served by the coin-daemon simulator (program "simulator"): how to simulate them. */
  simulated?: {
    rpc: 'bitcoin' | 'dash' | 'monero' | 'evm';
    blockTimeS: number;
    syncSeconds: number;
    registered?: boolean;
    /** The coin's collateral and one payment, in satoshis (the collateral address's activity). */ collateralSat?: number;
    rewardSat?: number;
    /** Dash family: the node's operator BLS public key (96 hex). */ operatorPublic?: string;
    /** EVM validators: what the simulated validator client holds, and its Keymanager API token. */ validators?: Array<{
      pubkey: string;
      feeRecipient: string;
      /** The daemon version it stands for (an upgrade), see the simulator's SimNodeConfig. */ daemonVersion?: string;
    }>;
    keymanagerToken?: string;
  };
};

export type EngineState = {
  /** created: exists, not started; running; restarting: crashed and being brought back; exited: stopped or crashed for good; missing: the engine has no such node. */
  state: 'created' | 'running' | 'restarting' | 'exited' | 'missing';
  /** How many times the engine restarted it after a crash. */
  restarts: number;
  startedAt: number | null;
  exitCode: number | null;
  error: string | null;
};

/** A host's disk for node data: bytes free to an unprivileged writer, and the filesystem's size. */
export type DiskSpace = { freeBytes: number; totalBytes: number; /** The folder measured (for logs). */ path: string };

/** statfs of a folder on this machine. */
export async function diskOf(dir: string): Promise<DiskSpace> {
  const s = await statfs(dir);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize, path: dir };
}

/** Where the platform reaches the node's daemon RPC. */
export type RpcEndpoint = {
  host: string;
  port: number;
  /** Path prefix, e.g. a simulated node's `/n/<id>`. */ path?: string;
};

export interface NodeEngine {
  readonly kind: 'local' | 'docker';
  /** Creates the node (process slot or container) without starting it; idempotent per nodeId. */
  create(spec: DaemonSpec): Promise<void>;
  start(nodeId: string): Promise<void>;
  /** Replaces files in the node's data folder (a rewritten config); the daemon reads them at its next start. */
  writeFiles(nodeId: string, files: DaemonFile[]): Promise<void>;
  /** Stops gracefully (SIGTERM, then SIGKILL after `timeoutS`). */
  stop(nodeId: string, timeoutS?: number): Promise<void>;
  /**
   * The node runs `spec` from now on (another daemon version): what runs it is replaced,
   * its data kept, and it is running afterwards if it was before. A simulated node keeps
   * its chain state (the simulator updates it in place).
   */
  replace(spec: DaemonSpec): Promise<void>;
  /** Stops and removes the node; its data folder/volume is removed too. Idempotent. */
  destroy(nodeId: string): Promise<void>;
  inspect(nodeId: string): Promise<EngineState>;
  /** The last `tail` lines of the daemon's output. */
  logs(nodeId: string, tail?: number): Promise<string>;
  /** `port`: another of the spec's named ports (a validator client's Keymanager API); default the RPC port. */
  rpcEndpoint(nodeId: string, port?: string): Promise<RpcEndpoint>;
  /** The ports an earlier `create` gave the node (null: none); engines with fixed ports need not say. */
  portsOf?(nodeId: string): Promise<Record<string, number> | null>;
  /**
   * Space on the disk the nodes' data lives on (the host check; null: this engine cannot
   * tell, e.g. a remote Docker that does not report it).
   */
  disk?(): Promise<DiskSpace | null>;
  /**
   * Is the program (local: an executable path; docker: an image name:tag) there? Its
   * identity (an image's id, a file's size and time), so a check can tell it changed.
   */
  program?(program: string): Promise<{ id: string } | null>;
  /**
   * Runs the program once with `args` and no network (a version question), its output
   * and exit code (null: still running after `timeoutMs`, then killed).
   */
  runOnce?(program: string, args: string[], timeoutMs: number): Promise<{ exitCode: number | null; output: string }>;
  /** The host's memory in bytes (null: this engine cannot tell). */
  memory?(): Promise<number | null>;
  /** Node ids this engine runs that the platform created (labels / pid files). */
  list(): Promise<string[]>;
  /**
   * Releases connections/timers. The local engine stops its children unless
   * `keepDaemons` (a service restart: the next start adopts them); containers always
   * keep running.
   */
  close(opts?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  keepDaemons?: boolean;
}

/**
 * An engine failure that trying again cannot fix (the simulator is off, the image is
 * not there): the node is failed at once instead of after its retries.
 */
export class PermanentEngineError extends Error {
  override readonly name = 'PermanentEngineError';
}
