import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import type { Logger } from '../../kernel/log';
import { snapshotTar } from '../bootstrap';
import { diskOf, type DaemonFile, type DaemonSpec, type EngineState, type NodeEngine } from '../engine';
import { tarOf } from './tar';
import type { HostConnection } from '../host-url';

export type DockerEngineOptions = {
  /** `unix:///path/to/docker.sock`, or `tcp://host:port` (plain HTTP; put TLS in front of a remote host). */
  url: string;
  /** How to connect, checked by fleet/host-url.ts (TLS client certificate, SSH); without it, from `url`. */
  connection?: HostConnection;
  /** This platform host's id: containers carry it, and `list()` sees only its own. */
  hostId: string;
  /** Where published daemon ports bind on the docker host. */
  bindAddress?: string;
  log: Logger;
};

/** A failure the fleet can show as is; `code` is stable for logs and decisions. */
export class DockerEngineError extends Error {
  constructor(
    readonly code: 'unreachable' | 'missing' | 'image_missing' | 'conflict' | 'invalid' | 'api',
    message: string,
  ) {
    super(message);
    this.name = 'DockerEngineError';
  }
}

const API_VERSION = 'v1.41'; // Podman 4 speaks 1.41; Docker 20.10+ accepts it.
const LABEL = {
  managed: 'nodekeep.managed',
  node: 'nodekeep.node',
  owner: 'nodekeep.owner',
  coin: 'nodekeep.coin',
  plan: 'nodekeep.plan',
  host: 'nodekeep.host',
  /** The container port that answers RPC: rpcEndpoint() only gets the node id. */
  rpcPort: 'nodekeep.rpc-port',
  /** The spec's named container ports (JSON), for rpcEndpoint(node, port). */
  ports: 'nodekeep.ports',
  /** Where the data volume is mounted: writeFiles() puts files there. */
  dataDir: 'nodekeep.data-dir',
} as const;
const NODE_ID = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,100}$/;
/** Docker's "never" timestamp. */
const ZERO_TIME = /^0001-01-01/;
/** Socket-level failures: the host is not there, as opposed to the host saying no. */
const UNREACHABLE = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** dockerode hands these to docker-modem, whose types have them; dockerode's omit them. */
type ModemOptions = Docker.DockerOptions & { agent: http.Agent; connectionTimeout: number };

export const containerName = (nodeId: string) => `nodekeep-${nodeId}`;
export const volumeName = (nodeId: string) => `nodekeep-${nodeId}-data`;

// --- docker-modem errors: an Error with the HTTP status and the daemon's JSON body, or a socket error code.

function statusOf(err: unknown): number | null {
  return err instanceof Error && 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : null;
}

/** ssh2 marks a refused login with this level (the key or user is not accepted by the host). */
function sshLoginRefused(err: unknown): boolean {
  return err instanceof Error && 'level' in err && err.level === 'client-authentication';
}

export function socketCode(err: unknown): string | null {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' && UNREACHABLE.has(err.code)
    ? err.code
    : null;
}

/** The daemon's own words ("No such image: x"), not docker-modem's "(HTTP code 404) ..." wrapper. */
export function daemonMessage(err: unknown): string {
  if (err instanceof Error && 'json' in err) {
    const body = err.json;
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
      return body.message.trim();
    if (typeof body === 'string' && body.trim()) return body.trim();
  }
  return err instanceof Error ? err.message.trim() : String(err);
}

/** dockerode's connection options for a host connection that fleet/host-url.ts checked. */
export function fromChecked(c: HostConnection): Docker.DockerOptions {
  if (c.kind === 'socket') return { socketPath: c.socketPath };
  if (c.kind === 'plain') return { host: c.host, port: c.port };
  if (c.kind === 'tls')
    return { protocol: 'https', host: c.host, port: c.port, ca: c.tls.ca, cert: c.tls.cert, key: c.tls.key };
  return {
    protocol: 'ssh',
    host: c.host,
    port: c.port,
    username: c.username,
    sshOptions: c.sshKey ? { privateKey: c.sshKey } : {},
  } as Docker.DockerOptions;
}

/** dockerode's connection options from a bare `unix://` or loopback `tcp://` URL. */
export function toConnection(url: string): { socketPath: string } | { host: string; port: number } {
  const u = new URL(url);
  if (u.protocol === 'unix:') return { socketPath: u.pathname };
  if (u.protocol === 'tcp:' || u.protocol === 'http:') return { host: u.hostname, port: Number(u.port || 2375) };
  throw new DockerEngineError('invalid', `docker host url ${url} is not unix:///path.sock or tcp://host:port`);
}

/**
 * Splits Docker's multiplexed log stream (8-byte headers: stream, 0, 0, 0, length) into text.
 * Containers with a TTY, and some Podman versions, send the raw bytes instead: anything that
 * does not parse as frames from start to end is taken as raw text.
 */
export function demuxLogs(buf: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= buf.length) {
    const stream = buf[at];
    if (stream > 2 || buf[at + 1] !== 0 || buf[at + 2] !== 0 || buf[at + 3] !== 0) return buf.toString('utf8');
    const len = buf.readUInt32BE(at + 4);
    if (at + 8 + len > buf.length) return buf.toString('utf8');
    parts.push(buf.subarray(at + 8, at + 8 + len));
    at += 8 + len;
  }
  if (at !== buf.length) return buf.toString('utf8');
  return Buffer.concat(parts).toString('utf8');
}

function lastLines(text: string, n: number): string {
  if (n <= 0) return '';
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.slice(-n).join('\n');
}

function toState(info: Docker.ContainerInspectInfo): EngineState {
  const s = info.State;
  const startedAt = s.StartedAt && !ZERO_TIME.test(s.StartedAt) ? Date.parse(s.StartedAt) : null;
  const error = s.Error ? s.Error : s.OOMKilled ? 'killed: out of memory' : null;
  const base = { restarts: info.RestartCount ?? 0, startedAt: Number.isFinite(startedAt) ? startedAt : null, error };
  if (s.Restarting || s.Status === 'restarting') return { ...base, state: 'restarting', exitCode: s.ExitCode };
  // Paused is not a state the platform uses; the process still exists, so it is not "exited".
  if (s.Running || s.Status === 'running' || s.Status === 'paused')
    return { ...base, state: 'running', exitCode: null };
  // Podman says "configured" for a container that never ran; compat layers usually say "created".
  if (s.Status === 'created' || s.Status === 'configured')
    return { ...base, state: 'created', startedAt: null, exitCode: null };
  return { ...base, state: 'exited', exitCode: s.ExitCode };
}

/**
 * Coin daemons as containers on a Docker Engine API: Docker, or Podman's compatible
 * service. Everything the engine needs to know about a node lives on the docker host
 * (labels, volume, restart policy), so a platform restart loses nothing and two
 * platform hosts can share one docker host (the host label keeps their lists apart).
 *
 * Crashes are restarted by the runtime's restart policy, not by us: it keeps working
 * while the platform is down. Published ports are chosen by the runtime, so
 * `rpcEndpoint()` asks every time (Docker may pick another after a restart).
 */
export function dockerEngine(opts: DockerEngineOptions): NodeEngine {
  const url = opts.url;
  const bindAddress = opts.bindAddress ?? '127.0.0.1';
  const log = opts.log.child({ engine: 'docker', docker_host: url });
  // A connection per request: with kept-alive sockets, Podman 4.3 now and then answered a
  // request with "socket hang up" (a reused connection it had dropped); a fresh unix-socket
  // connection costs next to nothing. Our own agent, so close() can cut requests in flight.
  // Over TLS an https agent (docker-modem adds the CA, certificate and key to each request);
  // over SSH docker-modem puts its own tunnelling agent in place of this one.
  const agent =
    opts.connection?.kind === 'tls'
      ? new https.Agent({ keepAlive: false, maxSockets: 16 })
      : new http.Agent({ keepAlive: false, maxSockets: 16 });
  const modem: ModemOptions = {
    ...(opts.connection ? fromChecked(opts.connection) : toConnection(url)),
    version: API_VERSION,
    agent,
    connectionTimeout: 5_000,
  };
  const docker = new Docker(modem);
  let closed = false;

  const fail = (what: string, err: unknown): DockerEngineError => {
    if (err instanceof DockerEngineError) return err;
    if (socketCode(err))
      return new DockerEngineError('unreachable', `docker host ${url} unreachable: ${daemonMessage(err)}`);
    // Not the daemon saying no: it was never asked, so the host counts as unreachable.
    if (sshLoginRefused(err))
      return new DockerEngineError('unreachable', `docker host ${url} refused the SSH login: ${daemonMessage(err)}`);
    const status = statusOf(err);
    return new DockerEngineError(
      'api',
      `docker host ${url} refused to ${what}${status ? ` (HTTP ${status})` : ''}: ${daemonMessage(err)}`,
    );
  };
  const missing = (nodeId: string) =>
    new DockerEngineError('missing', `node ${nodeId} has no container on docker host ${url}`);

  /** A GET of the API answered with JSON (a 404 is an error: the endpoint is not there). */
  function getJson(apiPath: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      docker.modem.dial(
        {
          path: apiPath,
          method: 'GET',
          options: {},
          statusCodes: { 200: true, 404: 'not found', 500: 'server error' },
        },
        (err, data) => (err ? reject(err) : resolve(data)),
      );
    });
  }

  function container(nodeId: string): Docker.Container {
    if (closed) throw new DockerEngineError('invalid', `docker engine for ${url} is closed`);
    if (!NODE_ID.test(nodeId))
      throw new DockerEngineError('invalid', `node id ${JSON.stringify(nodeId)} cannot name a container`);
    return docker.getContainer(containerName(nodeId));
  }

  /** The last `tail` lines a container wrote, stdout and stderr. */
  async function readLogs(c: Docker.Container, name: string, tail: number, gone: () => Error): Promise<string> {
    // A stream rather than dockerode's buffered logs(): that one JSON-parses the body when it can.
    const body = await new Promise<unknown>((resolve, reject) => {
      docker.modem.dial(
        {
          path: `/containers/${encodeURIComponent(c.id)}/logs?`,
          method: 'GET',
          options: { stdout: true, stderr: true, follow: false, tail },
          isStream: true,
          statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
    }).catch((err: unknown) => {
      if (statusOf(err) === 404) throw gone();
      throw fail(`read logs of ${name}`, err);
    });
    if (!(body instanceof Readable))
      throw new DockerEngineError('api', `docker host ${url} sent no log stream for ${name}`);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    } catch (err) {
      throw fail(`read logs of ${name}`, err);
    }
    return lastLines(demuxLogs(Buffer.concat(chunks)), tail);
  }

  /** The container's inspect data, or null when there is none. */
  async function find(nodeId: string): Promise<Docker.ContainerInspectInfo | null> {
    try {
      return await container(nodeId).inspect();
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw fail(`inspect ${containerName(nodeId)}`, err);
    }
  }

  async function inspectOrThrow(nodeId: string): Promise<Docker.ContainerInspectInfo> {
    const info = await find(nodeId);
    if (!info) throw missing(nodeId);
    return info;
  }

  /** Creates the data volume unless it exists; true when this call created it. */
  async function ensureVolume(spec: DaemonSpec): Promise<boolean> {
    const name = volumeName(spec.nodeId);
    try {
      await docker.getVolume(name).inspect();
      return false;
    } catch (err) {
      if (statusOf(err) !== 404) throw fail(`inspect volume ${name}`, err);
    }
    try {
      await docker.createVolume({
        Name: name,
        Labels: { [LABEL.managed]: 'true', [LABEL.node]: spec.nodeId, [LABEL.host]: opts.hostId },
      });
      return true;
    } catch (err) {
      throw fail(`create volume ${name}`, err);
    }
  }

  async function removeVolume(nodeId: string): Promise<void> {
    try {
      await docker.getVolume(volumeName(nodeId)).remove();
    } catch (err) {
      if (statusOf(err) !== 404) throw fail(`remove volume ${volumeName(nodeId)}`, err);
    }
  }

  function createOptions(spec: DaemonSpec): Docker.ContainerCreateOptions {
    if (spec.simulated)
      throw new DockerEngineError(
        'invalid',
        `node ${spec.nodeId} is simulated; only the local engine serves simulated nodes`,
      );
    const rpc = spec.ports[spec.rpcPort];
    if (rpc === undefined)
      throw new DockerEngineError('invalid', `node ${spec.nodeId}: rpc port "${spec.rpcPort}" is not among its ports`);
    const exposed: Record<string, object> = {};
    const bindings: Record<string, Array<{ HostIp: string; HostPort: string }>> = {};
    for (const [name, port] of Object.entries(spec.ports)) {
      exposed[`${port}/tcp`] = {};
      const fixed = spec.publish?.find((p) => p.port === name);
      // A masternode's P2P port: on its own public addresses, at the coin's port, so the
      // network finds it where it was registered. Two nodes cannot hold one pair.
      if (fixed)
        bindings[`${port}/tcp`] = fixed.hostIps.map((ip) => ({ HostIp: ip, HostPort: String(fixed.hostPort) }));
      // An empty HostPort lets the runtime pick a free one; rpcEndpoint() reads it back.
      else bindings[`${port}/tcp`] = [{ HostIp: bindAddress, HostPort: '' }];
    }
    for (const p of spec.publish ?? []) {
      if (spec.ports[p.port] === undefined)
        throw new DockerEngineError(
          'invalid',
          `node ${spec.nodeId}: published port "${p.port}" is not among its ports`,
        );
      if (p.hostIps.length === 0)
        throw new DockerEngineError(
          'invalid',
          `node ${spec.nodeId}: port "${p.port}" has no public address to be published on`,
        );
    }
    const memory = spec.limits.memoryBytes > 0 ? spec.limits.memoryBytes : undefined;
    return {
      name: containerName(spec.nodeId),
      Image: spec.program,
      Cmd: spec.args,
      Env: Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`),
      Labels: {
        [LABEL.managed]: 'true',
        [LABEL.node]: spec.nodeId,
        [LABEL.owner]: String(spec.ownerId),
        [LABEL.coin]: spec.coinId,
        [LABEL.plan]: spec.plan,
        [LABEL.host]: opts.hostId,
        [LABEL.rpcPort]: String(rpc),
        [LABEL.ports]: JSON.stringify(spec.ports),
        [LABEL.dataDir]: spec.dataDir,
      },
      ExposedPorts: exposed,
      Tty: false,
      HostConfig: {
        // A daemon as PID 1 gets no default signal handlers: without an init, SIGTERM is
        // ignored and every stop waits for the timeout, then SIGKILLs the chain state.
        Init: true,
        RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 10 },
        Memory: memory,
        // Same as Memory: no swap on top of the plan's memory.
        MemorySwap: memory,
        NanoCpus: spec.limits.cpus > 0 ? Math.round(spec.limits.cpus * 1e9) : undefined,
        Mounts: [{ Type: 'volume', Source: volumeName(spec.nodeId), Target: spec.dataDir }],
        PortBindings: bindings,
      },
    };
  }

  /**
   * The files as a tar into the container's data folder (the API's `PUT .../archive`),
   * given to the container's user (`copyUIDGID`): a daemon that does not run as root
   * must still read its 0600 config.
   */
  async function putFiles(nodeId: string, dataDir: string, files: DaemonFile[]): Promise<void> {
    const archive = await tarOf(files);
    try {
      await container(nodeId).putArchive(archive, { path: dataDir, copyUIDGID: 'true' });
    } catch (err) {
      if (statusOf(err) === 404) throw missing(nodeId);
      throw fail(`put files into ${containerName(nodeId)}`, err);
    }
  }

  /** A checked chain snapshot streamed into the new container's data folder, given to its user. */
  async function putSnapshot(nodeId: string, dataDir: string, file: string): Promise<void> {
    const t0 = Date.now();
    try {
      await container(nodeId).putArchive(snapshotTar(file), { path: dataDir, copyUIDGID: 'true' });
    } catch (err) {
      throw fail(`put the chain snapshot into ${containerName(nodeId)}`, err);
    }
    log.info('chain snapshot placed', { node: nodeId, ms: Date.now() - t0 });
  }

  const engine: NodeEngine = {
    kind: 'docker',

    async create(spec) {
      const t0 = Date.now();
      const name = containerName(spec.nodeId);
      const existing = await find(spec.nodeId);
      if (existing) {
        if (existing.Config.Labels?.[LABEL.managed] !== 'true')
          throw new DockerEngineError(
            'conflict',
            `container ${name} on docker host ${url} was not created by Nodekeep`,
          );
        // A retried provision: the files as the node's settings are now.
        if (spec.files?.length) await putFiles(spec.nodeId, spec.dataDir, spec.files);
        return;
      }
      const options = createOptions(spec);
      const madeVolume = await ensureVolume(spec);
      try {
        await docker.createContainer(options);
      } catch (err) {
        // Another create for this node won the race: same outcome.
        if (statusOf(err) === 409) {
          if (spec.files?.length) await putFiles(spec.nodeId, spec.dataDir, spec.files);
          return;
        }
        if (madeVolume) await removeVolume(spec.nodeId).catch(() => {});
        if (statusOf(err) === 404)
          throw new DockerEngineError('image_missing', `image ${spec.program} not found on docker host ${url}`);
        throw fail(`create container ${name}`, err);
      }
      // Into the created container, before its first start: the chain snapshot, then the
      // config, which never travels as arguments or environment (`docker inspect` and `ps`
      // show those to anyone on the host).
      if (spec.files?.length || spec.seed) {
        try {
          if (spec.seed) await putSnapshot(spec.nodeId, spec.dataDir, spec.seed);
          if (spec.files?.length) await putFiles(spec.nodeId, spec.dataDir, spec.files);
        } catch (err) {
          await container(spec.nodeId)
            .remove({ force: true })
            .catch(() => {});
          if (madeVolume) await removeVolume(spec.nodeId).catch(() => {});
          throw err;
        }
      }
      log.info('container created', {
        node: spec.nodeId,
        image: spec.program,
        files: spec.files?.length ?? 0,
        ms: Date.now() - t0,
      });
    },

    async writeFiles(nodeId, files) {
      const info = await inspectOrThrow(nodeId);
      const dataDir = info.Config.Labels?.[LABEL.dataDir];
      if (!dataDir)
        throw new DockerEngineError(
          'invalid',
          `container ${containerName(nodeId)} on docker host ${url} has no data folder label`,
        );
      await putFiles(nodeId, dataDir, files);
      log.info('container files written', { node: nodeId, files: files.map((f) => f.name) });
    },

    async start(nodeId) {
      try {
        await container(nodeId).start();
      } catch (err) {
        const status = statusOf(err);
        if (status === 304) return; // already running
        if (status === 404) throw missing(nodeId);
        throw fail(`start ${containerName(nodeId)}`, err);
      }
      log.info('container started', { node: nodeId });
    },

    async stop(nodeId, timeoutS = 20) {
      try {
        await container(nodeId).stop({ t: timeoutS });
      } catch (err) {
        const status = statusOf(err);
        if (status === 304) return; // already stopped
        if (status === 404) throw missing(nodeId);
        throw fail(`stop ${containerName(nodeId)}`, err);
      }
      log.info('container stopped', { node: nodeId });
    },

    async replace(spec) {
      const info = await find(spec.nodeId);
      if (!info) throw missing(spec.nodeId);
      const running = toState(info).state === 'running';
      // Only the container goes: the chain data is in the node's volume, which the new
      // container mounts again.
      if (running) await engine.stop(spec.nodeId);
      try {
        await container(spec.nodeId).remove({ force: true });
      } catch (err) {
        if (statusOf(err) !== 404) throw fail(`remove ${containerName(spec.nodeId)}`, err);
      }
      await engine.create(spec);
      if (running) await engine.start(spec.nodeId);
      log.info('container replaced', { node: spec.nodeId, image: spec.program });
    },

    async destroy(nodeId) {
      try {
        // The chain data goes with it, so there is nothing to stop gracefully for.
        await container(nodeId).remove({ force: true });
        log.info('container removed', { node: nodeId });
      } catch (err) {
        if (statusOf(err) !== 404) throw fail(`remove ${containerName(nodeId)}`, err);
      }
      await removeVolume(nodeId);
    },

    async inspect(nodeId) {
      const info = await find(nodeId);
      if (!info) return { state: 'missing', restarts: 0, startedAt: null, exitCode: null, error: null };
      return toState(info);
    },

    async logs(nodeId, tail = 100) {
      tail = Math.max(0, Math.floor(tail));
      return readLogs(container(nodeId), containerName(nodeId), tail, () => missing(nodeId));
    },

    async memory() {
      if (closed) throw new DockerEngineError('invalid', `docker engine for ${url} is closed`);
      try {
        const info = (await docker.info()) as { MemTotal?: unknown };
        return typeof info.MemTotal === 'number' && info.MemTotal > 0 ? info.MemTotal : null;
      } catch (err) {
        throw fail('read its info', err);
      }
    },

    async program(image) {
      try {
        const info = await docker.getImage(image).inspect();
        return { id: info.Id };
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw fail(`inspect image ${image}`, err);
      }
    },

    async runOnce(image, args, timeoutMs) {
      if (closed) throw new DockerEngineError('invalid', `docker engine for ${url} is closed`);
      // A throwaway container with no network: it only says what it is (`--version`).
      const name = `nodekeep-run-${crypto.randomBytes(6).toString('hex')}`;
      let c: Docker.Container;
      try {
        c = await docker.createContainer({
          name,
          Image: image,
          Cmd: args,
          Labels: { [LABEL.host]: opts.hostId },
          HostConfig: { Init: true, NetworkMode: 'none' },
        });
      } catch (err) {
        if (statusOf(err) === 404)
          throw new DockerEngineError('image_missing', `image ${image} not found on docker host ${url}`);
        throw fail(`create container ${name}`, err);
      }
      try {
        await c.start();
        let timer: NodeJS.Timeout | undefined;
        const waited = await Promise.race([
          c.wait() as Promise<{ StatusCode: number }>,
          new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs))),
        ]).finally(() => clearTimeout(timer));
        const output = await readLogs(c, name, 200, () => new DockerEngineError('missing', `${name} vanished`));
        return { exitCode: waited ? waited.StatusCode : null, output };
      } catch (err) {
        throw fail(`run ${image} ${args.join(' ')}`, err);
      } finally {
        await c.remove({ force: true }).catch(() => {});
      }
    },

    async rpcEndpoint(nodeId, name) {
      const info = await inspectOrThrow(nodeId);
      const labels = info.Config.Labels ?? {};
      const port = name
        ? (JSON.parse(labels[LABEL.ports] ?? '{}') as Record<string, number>)[name]
        : labels[LABEL.rpcPort];
      const binding = port ? info.NetworkSettings?.Ports?.[`${port}/tcp`]?.find((b) => b.HostPort) : undefined;
      if (!binding)
        throw new DockerEngineError(
          'invalid',
          `node ${nodeId} has no published ${name ?? 'rpc'} port on docker host ${url} (is it running?)`,
        );
      return { host: endpointHost(binding.HostIp), port: Number(binding.HostPort) };
    },

    async disk() {
      if (closed) throw new DockerEngineError('invalid', `docker engine for ${url} is closed`);
      // A socket on this machine: its runtime's folders are ours to statfs (free space as
      // an unprivileged writer sees it). Else only Podman says: its graph root's size and use.
      const local = 'socketPath' in toConnection(url);
      const podman = await getJson('/libpod/info').catch(() => null);
      const store =
        podman && typeof podman === 'object' && 'store' in podman ? (podman.store as Record<string, unknown>) : null;
      if (store) {
        const folders = [store.volumePath, store.graphRoot].filter(
          (p): p is string => typeof p === 'string' && p !== '',
        );
        // The volumes folder appears with the first volume; the graph root is on the same disk unless configured apart.
        const here = local ? folders.find((p) => fs.existsSync(p)) : undefined;
        if (here) return diskOf(here);
        const folder = folders[0];
        const total = Number(store.graphRootAllocated);
        const used = Number(store.graphRootUsed);
        if (total > 0 && used >= 0)
          return { freeBytes: Math.max(0, total - used), totalBytes: total, path: `${url} ${folder ?? ''}`.trim() };
      }
      let info: { DockerRootDir?: string };
      try {
        info = (await docker.info()) as { DockerRootDir?: string };
      } catch (err) {
        throw fail('read its info', err);
      }
      const root = info.DockerRootDir;
      if (local && root) {
        const volumes = path.join(root, 'volumes');
        if (fs.existsSync(volumes)) return diskOf(volumes);
        if (fs.existsSync(root)) return diskOf(root);
      }
      return null; // A remote Docker Engine does not report its free disk.
    },

    async list() {
      if (closed) throw new DockerEngineError('invalid', `docker engine for ${url} is closed`);
      try {
        const found = await docker.listContainers({
          all: true,
          filters: { label: [`${LABEL.managed}=true`, `${LABEL.host}=${opts.hostId}`] },
        });
        return found.map((c) => c.Labels[LABEL.node]).filter((id): id is string => Boolean(id));
      } catch (err) {
        throw fail('list containers', err);
      }
    },

    async close() {
      closed = true;
      agent.destroy();
    },
  };
  return engine;

  /** The address the platform dials: the binding's own, unless it is a wildcard. */
  function endpointHost(hostIp: string): string {
    if (hostIp && hostIp !== '0.0.0.0' && hostIp !== '::') return hostIp;
    const conn = toConnection(url);
    return 'host' in conn ? conn.host : '127.0.0.1';
  }
}
