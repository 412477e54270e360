import { findUserByLogin } from '../auth/queries';
import { bundledCatalogPath } from '../coins/import';
import type { CliCommand } from '../cli/types';
import { parseFlags, UsageError } from '../cli/types';
import type { DB } from '../db/open';
import { AppError } from '../errors';
import { createLogger } from '../log';
import { logOperatorAction } from '../operator/log';
import { dockerEngine } from './engines/docker';
import { LocalEngine } from './engines/local';
import { simulatorCommand } from './engines/registry';
import { loadProfiles } from './profiles';
import { deleteHost, detachNodesFromHost, findHost, findNode, hostUsage, insertHost, listHosts, listExistingNodes, nodeCountsBySimulated, nodesByStatus, updateHost } from './queries';
import { requestDestroy, requestNode, requestRestart } from './service';
import path from 'node:path';

const quietLog = createLogger('error');

function count(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,6}$/.test(text)) throw new UsageError(`--${flag} must be a whole number of slots`);
  return Number(text);
}

async function requireNode(db: DB, id: string | undefined) {
  if (!id) throw new UsageError('name a node id (see `fleet status`)');
  const node = await findNode(db, id);
  if (!node) throw new UsageError(`no live node "${id}"`);
  return node;
}

async function requireHost(db: DB, name: string | undefined) {
  if (!name) throw new UsageError('name a host (see `hosts list`)');
  const host = await findHost(db, name);
  if (!host) throw new UsageError(`no host "${name}"`);
  return host;
}

export const fleetCommands: Record<string, CliCommand> = {
  'hosts list': {
    usage: 'hosts list',
    summary: 'hosts with engine, address, state and capacity',
    async run(db, _args, io) {
      const usage = await hostUsage(db);
      io.out(['name', 'engine', 'url', 'ipv4', 'state', 'dedicated used/slots', 'cloud used/slots'].join('\t'));
      for (const h of await listHosts(db)) {
        const u = usage.get(h.id) ?? { dedicated: 0, cloud: 0 };
        io.out([h.name, h.engine, h.url ?? '-', h.ipv4, h.state, `${u.dedicated}/${h.dedicated_slots}`, `${u.cloud}/${h.cloud_slots}`].join('\t') + (h.last_error ? `\t(${h.last_error})` : ''));
      }
    },
  },
  'hosts add': {
    usage: 'hosts add <name> --engine docker --url unix:///path.sock|tcp://host:port --ipv4 <address> [--ipv6 <address>] [--dedicated N] [--cloud N]',
    summary: 'add a remote Docker/Podman host to the fleet',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['engine', 'url', 'ipv4', 'ipv6', 'dedicated', 'cloud']);
      const [name] = positional;
      if (positional.length !== 1 || !/^[a-z0-9][a-z0-9-]{0,31}$/.test(name)) throw new UsageError('hosts add takes one name of lowercase letters, digits and -');
      if (flags.engine !== 'docker') throw new UsageError('--engine docker is required (the local host exists already)');
      if (!flags.url || !/^(unix:\/\/\/.+|tcp:\/\/[^/]+:\d+)$/.test(flags.url)) throw new UsageError('--url must be unix:///path/to/docker.sock or tcp://host:port');
      if (!flags.ipv4 || !/^(\d{1,3}\.){3}\d{1,3}$/.test(flags.ipv4)) throw new UsageError('--ipv4 must be the IPv4 address customers see');
      if (await findHost(db, name)) throw new UsageError(`host ${name} exists already`);
      // Reach the host before adding it, so a typo never enters the fleet.
      const engine = dockerEngine({ url: flags.url, hostId: name, log: quietLog });
      try {
        await engine.list();
      } catch (err) {
        throw new UsageError(`cannot reach ${flags.url}: ${(err as Error).message}`);
      } finally {
        await engine.close();
      }
      await insertHost(db, { name, engine: 'docker', url: flags.url, ipv4: flags.ipv4, ipv6: flags.ipv6 ?? null, dedicated_slots: count(flags.dedicated, 'dedicated', 10), cloud_slots: count(flags.cloud, 'cloud', 50), state: 'active', last_error: null });
      await logOperatorAction(db, io.by, 'hosts add', { name, url: flags.url });
      io.out(`host ${name} added`);
    },
  },
  'hosts set': {
    usage: 'hosts set <name> [--dedicated N] [--cloud N] [--ipv4 <address>]',
    summary: "change a host's capacity or address",
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['dedicated', 'cloud', 'ipv4']);
      const host = await requireHost(db, positional[0]);
      if (flags.ipv4 && !/^(\d{1,3}\.){3}\d{1,3}$/.test(flags.ipv4)) throw new UsageError('--ipv4 must be an IPv4 address');
      await updateHost(db, host.id, { dedicated_slots: count(flags.dedicated, 'dedicated', host.dedicated_slots), cloud_slots: count(flags.cloud, 'cloud', host.cloud_slots), ipv4: flags.ipv4 ?? host.ipv4 });
      await logOperatorAction(db, io.by, 'hosts set', { name: host.name, ...flags });
      io.out(`host ${host.name} updated`);
    },
  },
  'hosts drain': {
    usage: 'hosts drain <name>',
    summary: 'place no new nodes on a host (its nodes keep running)',
    async run(db, args, io) {
      const host = await requireHost(db, args[0]);
      await updateHost(db, host.id, { state: 'draining' });
      await logOperatorAction(db, io.by, 'hosts drain', { name: host.name });
      io.out(`host ${host.name} is draining: no new nodes go there`);
    },
  },
  'hosts remove': {
    usage: 'hosts remove <name>',
    summary: 'remove a host that runs no nodes',
    async run(db, args, io) {
      const host = await requireHost(db, args[0]);
      if (host.engine === 'local') throw new UsageError('the local host cannot be removed; drain it instead');
      const used = (await hostUsage(db)).get(host.id);
      if (used && used.dedicated + used.cloud > 0) throw new UsageError(`host ${host.name} still runs ${used.dedicated + used.cloud} nodes; drain it and move or destroy them first`);
      await detachNodesFromHost(db, host.id);
      await deleteHost(db, host.id);
      await logOperatorAction(db, io.by, 'hosts remove', { name: host.name });
      io.out(`host ${host.name} removed`);
    },
  },
  'fleet status': {
    usage: 'fleet status',
    summary: 'hosts, capacity and nodes per status',
    async run(db, args, io, config) {
      await fleetCommands['hosts list'].run(db, args, io, config);
      const rows = await nodesByStatus(db);
      const byStatus = new Map<string, number>();
      for (const r of rows) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + Number(r.n));
      io.out('');
      io.out(`nodes: ${[...byStatus.values()].reduce((a, b) => a + b, 0)}${byStatus.size ? ` (${[...byStatus].map(([s, n]) => `${s} ${n}`).join(', ')})` : ''}`);
      const simulated = Number((await nodeCountsBySimulated(db)).find((r) => r.simulated === 1)?.n ?? 0);
      io.out(`simulated nodes: ${simulated} (served by the coin-daemon simulator, shown to their owners with a "Simulated" badge)`);
      // This process's setting; the server's is in its own environment (it logs refusals).
      io.out(`FLEET_SIMULATOR in this environment: ${config.fleetSimulator ? 'on' : 'off'}; coins without a real daemon profile use catalog/daemons.json "simulator-*"`);
    },
  },
  'fleet nodes': {
    usage: 'fleet nodes',
    summary: 'nodes that exist (being set up, live, failed): id, coin, owner, plan, status, IP, and SIMULATED for simulator-served ones',
    async run(db, _args, io) {
      const hosts = new Map((await listHosts(db)).map((h) => [h.id, h.name]));
      io.out(['node', 'coin', 'user_id', 'plan', 'status', 'host', 'ip', 'kind'].join('\t'));
      for (const n of await listExistingNodes(db)) {
        io.out([n.mn_id, n.coin_id, n.user_id, n.package, n.status, hosts.get(n.host_id ?? -1) ?? '-', n.simulated ? '-' : (n.server_ip ?? '-'), n.simulated ? 'SIMULATED' : 'real'].join('\t'));
      }
    },
  },
  'fleet create': {
    usage: 'fleet create <coin> --user <name|email> --plan dedicated|cloud',
    summary: 'run a node for a user (the server starts it on a host with capacity)',
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['user', 'plan']);
      if (positional.length !== 1) throw new UsageError('fleet create takes one coin id');
      if (flags.plan !== 'dedicated' && flags.plan !== 'cloud') throw new UsageError('--plan must be dedicated or cloud');
      if (!flags.user) throw new UsageError('--user is required');
      const user = await findUserByLogin(db, flags.user);
      if (!user) throw new UsageError(`no user "${flags.user}"`);
      const profiles = loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json'));
      try {
        const node = await requestNode(db, { profiles, log: quietLog, simulator: config.fleetSimulator }, { userId: user.id, coinId: positional[0].toLowerCase(), plan: flags.plan });
        await logOperatorAction(db, io.by, 'fleet create', { node: node.mn_id, user_id: user.id });
        io.out(`node ${node.mn_id} requested; the running server places and starts it`);
      } catch (err) {
        if (err instanceof AppError) throw new UsageError(err.message);
        throw err;
      }
    },
  },
  'fleet logs': {
    usage: 'fleet logs <node> [--tail N]',
    summary: "the last lines of a node's daemon output",
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['tail']);
      const node = await requireNode(db, positional[0]);
      const host = (await listHosts(db)).find((h) => h.id === node.host_id);
      if (!host) throw new UsageError(`node ${node.mn_id} has no host`);
      const tail = count(flags.tail, 'tail', 100);
      const engine = host.engine === 'local' ? new LocalEngine({ dir: path.join(config.dataDir, 'fleet', 'local'), log: quietLog, simulatorCommand: simulatorCommand() }) : dockerEngine({ url: host.url!, hostId: host.name, log: quietLog });
      try {
        io.out(await engine.logs(node.mn_id, tail));
      } catch (err) {
        throw new UsageError(`cannot read logs: ${(err as Error).message}`);
      } finally {
        if (host.engine !== 'local') await engine.close();
      }
    },
  },
  'fleet restart': {
    usage: 'fleet restart <node>',
    summary: "restart a node's daemon",
    async run(db, args, io) {
      const node = await requireNode(db, args[0]);
      await requestRestart(db, node, io.by);
      io.out(`node ${node.mn_id} will be restarted by the running server`);
    },
  },
  'fleet destroy': {
    usage: 'fleet destroy <node>',
    summary: 'destroy a node and its data (cannot be undone)',
    async run(db, args, io) {
      const node = await requireNode(db, args[0]);
      await requestDestroy(db, node, io.by);
      io.out(`node ${node.mn_id} is deleted; the running server removes its daemon and data`);
    },
  },
};
