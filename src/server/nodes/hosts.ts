import path from 'node:path';
import type { Config } from '../kernel/config';
import type { DB } from '../db/open';
import type { Host } from '../db/schema';
import { fail } from '../kernel/errors';
import type { Logger } from '../kernel/log';
import { logOperatorAction, type OperatorActor } from '../operator/log';
import type { SecretBox } from '../secrets/box';
import type { NodeEngine } from '../fleet/engine';
import { dockerEngine } from '../fleet/engines/docker';
import { LocalEngine } from '../fleet/engines/local';
import { simulatorCommand } from '../fleet/engines/registry';
import {
  hostConnection,
  HostUrlError,
  type HostConnection,
  type HostCredentials,
  type HostTls,
} from '../fleet/host-url';
import {
  deleteHost,
  detachNodesFromHost,
  findHost,
  hostUsage,
  insertHost,
  listHosts,
  updateHost,
} from './fleet-queries';

/**
 * The operator's host actions: one service for the CLI (`hosts …`) and the console's
 * Fleet page. Each change writes the operator log in its own transaction, under the
 * CLI command's name.
 */
export type HostDeps = { db: DB; box: Pick<SecretBox, 'seal' | 'open'>; log: Logger };

export type AddHostInput = {
  name: string;
  url: string;
  ipv4: string;
  ipv6?: string | null;
  dedicated?: number;
  cloud?: number;
  tls?: HostTls;
  sshKey?: string;
};

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const MAX_SLOTS = 100_000;

const aad = (hostName: string) => `host:${hostName}:credentials`;

function slots(n: number | undefined, fallback: number, what: string): number {
  if (n === undefined) return fallback;
  if (!Number.isInteger(n) || n < 0 || n > MAX_SLOTS)
    fail('BAD_REQUEST', `${what} slots must be a whole number from 0 to ${MAX_SLOTS}`, what);
  return n;
}

/** The URL rule of host-url.ts as a domain error (the CLI and the console show its message). */
export function checkHostUrl(url: string, creds: HostCredentials): HostConnection {
  try {
    return hostConnection(url, creds);
  } catch (err) {
    if (err instanceof HostUrlError) fail('BAD_REQUEST', err.message, 'url');
    throw err;
  }
}

/** How to reach a host row: its URL with its sealed credentials opened. */
export function connectionOf(
  box: Pick<SecretBox, 'open'>,
  host: Pick<Host, 'name' | 'url' | 'credentials'>,
): HostConnection {
  const creds: HostCredentials = host.credentials
    ? (JSON.parse(box.open(host.credentials, aad(host.name))) as HostCredentials)
    : {};
  return hostConnection(host.url!, creds);
}

/** The engine of a docker host row (the control loop, the CLI and the console alike). */
export function dockerEngineFor(box: Pick<SecretBox, 'open'>, host: Host, log: Logger): NodeEngine {
  const connection = connectionOf(box, host);
  return dockerEngine({
    url: host.url!,
    connection,
    hostId: host.name,
    log,
    bindAddress: connection.kind === 'socket' ? '127.0.0.1' : host.ipv4,
  });
}

/** Lists containers once: the reachability check run before a host enters the fleet. */
export async function reachHost(url: string, connection: HostConnection, name: string, log: Logger): Promise<void> {
  const engine = dockerEngine({ url, connection, hostId: name, log });
  try {
    await engine.list();
  } catch (err) {
    fail('BAD_REQUEST', `cannot reach ${url}: ${(err as Error).message}`, 'url');
  } finally {
    await engine.close();
  }
}

export type Reach = typeof reachHost;

export async function addHost(
  deps: HostDeps,
  by: OperatorActor,
  input: AddHostInput,
  reach: Reach = reachHost,
): Promise<Host> {
  if (!NAME.test(input.name))
    fail(
      'BAD_REQUEST',
      'A host name is 1-32 lowercase letters, digits and -, starting with a letter or digit.',
      'name',
    );
  if (!IPV4.test(input.ipv4))
    fail('BAD_REQUEST', 'ipv4 must be the IPv4 address customers see (e.g. 203.0.113.10).', 'ipv4');
  const creds: HostCredentials = {
    ...(input.tls ? { tls: input.tls } : {}),
    ...(input.sshKey ? { sshKey: input.sshKey } : {}),
  };
  const connection = checkHostUrl(input.url, creds);
  const dedicated = slots(input.dedicated, 10, 'dedicated');
  const cloud = slots(input.cloud, 50, 'cloud');
  if (await findHost(deps.db, input.name)) fail('CONFLICT', `A host named ${input.name} exists already.`, 'name');
  // Reached before it is added, so a typo never enters the fleet (outside any transaction).
  await reach(input.url, connection, input.name, deps.log);
  const sealed = Object.keys(creds).length ? deps.box.seal(JSON.stringify(creds), aad(input.name)) : null;
  const id = await deps.db.transaction().execute(async (trx) => {
    if (await findHost(trx, input.name)) fail('CONFLICT', `A host named ${input.name} exists already.`, 'name');
    const row = await insertHost(trx, {
      name: input.name,
      engine: 'docker',
      url: input.url.trim(),
      ipv4: input.ipv4,
      ipv6: input.ipv6 ?? null,
      dedicated_slots: dedicated,
      cloud_slots: cloud,
      state: 'active',
      last_error: null,
      credentials: sealed,
    });
    // The URL and the kind of connection; never the key material.
    await logOperatorAction(trx, by, 'hosts add', {
      name: input.name,
      url: input.url.trim(),
      connection: connection.kind,
    });
    return row.id;
  });
  return (await listHosts(deps.db)).find((h) => h.id === id)!;
}

async function requireHost(db: DB, name: string): Promise<Host> {
  const host = await findHost(db, name);
  if (!host) fail('NOT_FOUND', `No host named ${name}.`);
  return host;
}

export type HostPatch = { dedicated?: number; cloud?: number; ipv4?: string };

export async function setHost(db: DB, by: OperatorActor, name: string, patch: HostPatch): Promise<void> {
  const host = await requireHost(db, name);
  if (patch.ipv4 !== undefined && !IPV4.test(patch.ipv4)) fail('BAD_REQUEST', 'ipv4 must be an IPv4 address.', 'ipv4');
  const next = {
    dedicated_slots: slots(patch.dedicated, host.dedicated_slots, 'dedicated'),
    cloud_slots: slots(patch.cloud, host.cloud_slots, 'cloud'),
    ipv4: patch.ipv4 ?? host.ipv4,
  };
  await db.transaction().execute(async (trx) => {
    await updateHost(trx, host.id, next);
    await logOperatorAction(trx, by, 'hosts set', { name: host.name, ...patch });
  });
}

export async function drainHost(db: DB, by: OperatorActor, name: string): Promise<void> {
  const host = await requireHost(db, name);
  await db.transaction().execute(async (trx) => {
    await updateHost(trx, host.id, { state: 'draining' });
    await logOperatorAction(trx, by, 'hosts drain', { name: host.name });
  });
}

/**
 * Takes a draining host back: new nodes may be placed there again. A host the checks
 * found gone is not brought back by a word: it comes back when its check passes.
 */
export async function activateHost(db: DB, by: OperatorActor, name: string): Promise<void> {
  const host = await requireHost(db, name);
  if (host.state === 'active') fail('CONFLICT', `Host ${host.name} is already active.`);
  if (host.state === 'gone')
    fail('CONFLICT', `Host ${host.name} cannot be reached; it becomes active again when its check passes.`);
  await db.transaction().execute(async (trx) => {
    await updateHost(trx, host.id, { state: 'active' });
    await logOperatorAction(trx, by, 'hosts activate', { name: host.name });
  });
}

export async function removeHost(db: DB, by: OperatorActor, name: string): Promise<void> {
  const host = await requireHost(db, name);
  if (host.engine === 'local') fail('BAD_REQUEST', 'The local host cannot be removed; drain it instead.');
  await db.transaction().execute(async (trx) => {
    const used = (await hostUsage(trx)).get(host.id);
    if (used && used.dedicated + used.cloud > 0)
      fail(
        'CONFLICT',
        `Host ${host.name} still runs ${used.dedicated + used.cloud} nodes; drain it and move or destroy them first.`,
      );
    await detachNodesFromHost(trx, host.id);
    await deleteHost(trx, host.id);
    await logOperatorAction(trx, by, 'hosts remove', { name: host.name });
  });
}

/** Hosts with their used slots per plan (the CLI's `hosts list`, the console's table). */
export async function hostsWithUsage(db: DB) {
  const [hosts, usage] = await Promise.all([listHosts(db), hostUsage(db)]);
  return hosts.map((h) => {
    const u = usage.get(h.id) ?? { dedicated: 0, cloud: 0, profiles: {} };
    return { host: h, used: u };
  });
}

/** The engine a node's logs are read from (opened for one call; close() it after). */
export function engineForHost(
  config: Pick<Config, 'dataDir'>,
  box: Pick<SecretBox, 'open'>,
  host: Host,
  log: Logger,
): { engine: NodeEngine; close: () => Promise<void> } {
  if (host.engine === 'local')
    return {
      engine: new LocalEngine({
        dir: path.join(config.dataDir, 'fleet', 'local'),
        log,
        simulatorCommand: simulatorCommand(),
      }),
      close: async () => {},
    };
  const engine = dockerEngineFor(box, host, log);
  return { engine, close: () => engine.close() };
}
