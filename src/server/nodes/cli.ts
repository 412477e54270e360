import { RESTART_WAIT_MS } from '../../shared/node-maintenance';
import { loadDaemonFacts } from '../fleet/daemon-facts';
import { findUserByLogin } from '../auth/users';
import { DataDirInUse, lockDataDir } from '../db/data-dir';
import { LocalEngine } from '../fleet/engines/local';
import { bundledCatalogPath } from '../coins/import';
import type { CliCommand } from '../db/cli-command';
import { asUsage, parseFlags, UsageError, usageOrRefusal } from '../kernel/cli';
import { terminalField as f } from '../kernel/terminal';
import type { DB } from '../db/open';
import type { Config } from '../kernel/config';
import { fail } from '../kernel/errors';
import { createLogger } from '../kernel/log';
import { logOperatorAction } from '../operator/log';
import { serverSettings } from '../operator/settings';
import { openSecretBox } from '../secrets/box';
import { activateHost, addHost, drainHost, hostsWithUsage, removeHost, setHost } from './hosts';
import { destroyNode, failedQueue, nodeLogs, restartNode, retryFailedJob } from './node-ops';
import { loadProfiles } from '../fleet/profiles';
import {
  findHost,
  findNode,
  listHosts,
  listExistingNodes,
  nodeCountsBySimulated,
  nodesByStatus,
} from './fleet-queries';
import { startRollout, upgradesOverview } from './rollouts';
import { requestNode } from './lifecycle';
import fs from 'node:fs';
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
  if (!node) fail('NOT_FOUND', `no live node "${id}"`);
  return node;
}

function readText(file: string): string {
  try {
    return fs.readFileSync(path.resolve(file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/**
 * The fleet settings the running server was started with (recorded at its start), or,
 * before its first start, this command's own environment: said with the answer.
 */
async function serverFleet(db: DB, config: Config) {
  const server = await serverSettings(db);
  if (server)
    return {
      simulator: server.fleet_simulator,
      profilesFile: server.daemon_profiles_file,
      factsDir: server.daemon_facts_dir,
      source: `the server's, as of its start at ${new Date(server.started_at).toISOString()}`,
    };
  return {
    simulator: config.fleetSimulator,
    profilesFile: config.daemonProfilesFile ?? null,
    factsDir: config.daemonFactsDir ?? null,
    source: "this command's environment: the server has not started on this data folder yet",
  };
}

export const fleetCommands: Record<string, CliCommand> = {
  'hosts list': {
    usage: 'hosts list',
    summary: 'hosts with engine, address, state and capacity',
    async run(db, _args, io) {
      io.out(['name', 'engine', 'url', 'ipv4', 'state', 'dedicated used/slots', 'cloud used/slots'].join('\t'));
      for (const { host: h, used: u } of await hostsWithUsage(db)) {
        io.out(
          [
            h.name,
            h.engine,
            h.url ?? '-',
            h.ipv4,
            h.state,
            `${u.dedicated}/${h.dedicated_slots}`,
            `${u.cloud}/${h.cloud_slots}`,
          ].join('\t') + (h.last_error ? `\t(${f(h.last_error)})` : ''),
        );
      }
    },
  },
  'hosts add': {
    usage:
      'hosts add <name> --engine docker --url unix:///path.sock|https://host:2376|ssh://user@host|tcp://127.0.0.1:port --ipv4 <address> [--ipv6 <address>] [--dedicated N] [--cloud N] [--tls-ca ca.pem --tls-cert cert.pem --tls-key key.pem] [--ssh-key id_ed25519]',
    summary: 'add a Docker/Podman host to the fleet (remote hosts only over TLS with a client certificate or SSH)',
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, [
        'engine',
        'url',
        'ipv4',
        'ipv6',
        'dedicated',
        'cloud',
        'tls-ca',
        'tls-cert',
        'tls-key',
        'ssh-key',
      ]);
      if (positional.length !== 1) throw new UsageError('hosts add takes one name of lowercase letters, digits and -');
      if (flags.engine !== 'docker')
        throw new UsageError('--engine docker is required (the local host exists already)');
      if (!flags.url) throw new UsageError('--url is required');
      if (!flags.ipv4) throw new UsageError('--ipv4 must be the IPv4 address customers see');
      const tlsFiles = [flags['tls-ca'], flags['tls-cert'], flags['tls-key']];
      if (tlsFiles.some(Boolean) && !tlsFiles.every(Boolean))
        throw new UsageError('give all three of --tls-ca, --tls-cert and --tls-key');
      const tls = tlsFiles.every(Boolean)
        ? { ca: readText(flags['tls-ca']), cert: readText(flags['tls-cert']), key: readText(flags['tls-key']) }
        : undefined;
      const input = {
        name: positional[0],
        url: flags.url,
        ipv4: flags.ipv4,
        ipv6: flags.ipv6 ?? null,
        dedicated: count(flags.dedicated, 'dedicated', 10),
        cloud: count(flags.cloud, 'cloud', 50),
        tls,
        sshKey: flags['ssh-key'] ? readText(flags['ssh-key']) : undefined,
      };
      await asUsage(() => addHost({ db, box: openSecretBox(config.dataDir, config), log: quietLog }, io.by, input));
      io.out(`host ${input.name} added`);
    },
  },
  'hosts set': {
    usage: 'hosts set <name> [--dedicated N] [--cloud N] [--ipv4 <address>]',
    summary: "change a host's capacity or address",
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['dedicated', 'cloud', 'ipv4']);
      if (!positional[0]) throw new UsageError('name a host (see `hosts list`)');
      const patch = {
        dedicated: flags.dedicated === undefined ? undefined : count(flags.dedicated, 'dedicated', 0),
        cloud: flags.cloud === undefined ? undefined : count(flags.cloud, 'cloud', 0),
        ipv4: flags.ipv4,
      };
      await asUsage(() => setHost(db, io.by, positional[0], patch));
      // Capacity is not the state: a draining host takes no node whatever its slots.
      const draining = (await findHost(db, positional[0]))?.state === 'draining';
      io.out(
        `host ${positional[0]} updated${draining ? ` (still draining: \`hosts activate ${positional[0]}\` to take new nodes)` : ''}`,
      );
    },
  },
  'hosts drain': {
    usage: 'hosts drain <name>',
    summary: 'place no new nodes on a host (its nodes keep running)',
    async run(db, args, io) {
      if (!args[0]) throw new UsageError('name a host (see `hosts list`)');
      await asUsage(() => drainHost(db, io.by, args[0]));
      io.out(`host ${args[0]} is draining: no new nodes go there`);
    },
  },
  'hosts activate': {
    usage: 'hosts activate <name>',
    summary: 'place new nodes on a draining host again',
    async run(db, args, io) {
      if (!args[0]) throw new UsageError('name a host (see `hosts list`)');
      await asUsage(() => activateHost(db, io.by, args[0]));
      io.out(`host ${args[0]} is active: new nodes may go there`);
    },
  },
  'hosts remove': {
    usage: 'hosts remove <name>',
    summary: 'remove a host that runs no nodes',
    async run(db, args, io) {
      if (!args[0]) throw new UsageError('name a host (see `hosts list`)');
      await asUsage(() => removeHost(db, io.by, args[0]));
      io.out(`host ${args[0]} removed`);
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
      io.out(
        `nodes: ${[...byStatus.values()].reduce((a, b) => a + b, 0)}${byStatus.size ? ` (${[...byStatus].map(([s, n]) => `${s} ${n}`).join(', ')})` : ''}`,
      );
      const simulated = Number((await nodeCountsBySimulated(db)).find((r) => r.simulated === 1)?.n ?? 0);
      io.out(
        `simulated nodes: ${simulated} (served by the coin-daemon simulator, shown to their owners with a "Simulated" badge)`,
      );
      const fleet = await serverFleet(db, config);
      io.out(
        `FLEET_SIMULATOR ${fleet.simulator ? 'on' : 'off'} (${fleet.source}); coins without a real daemon profile use catalog/daemons.json "simulator-*"`,
      );
    },
  },
  'fleet nodes': {
    usage: 'fleet nodes',
    summary:
      'nodes that exist (being set up, live, failed): id, coin, owner, plan, status, IP, and SIMULATED for simulator-served ones',
    async run(db, _args, io) {
      const hosts = new Map((await listHosts(db)).map((h) => [h.id, h.name]));
      io.out(['node', 'coin', 'user_id', 'plan', 'status', 'host', 'ip', 'kind'].join('\t'));
      for (const n of await listExistingNodes(db)) {
        io.out(
          [
            n.mn_id,
            n.coin_id,
            n.user_id,
            n.package,
            n.status,
            hosts.get(n.host_id ?? -1) ?? '-',
            n.simulated ? '-' : (n.server_ip ?? '-'),
            n.simulated ? 'SIMULATED' : 'real',
          ].join('\t'),
        );
      }
    },
  },
  'fleet stop-local': {
    usage: 'fleet stop-local',
    summary:
      'with the server stopped, stop the coin daemons it left running on this machine (a stop keeps them for the next start)',
    withoutDatabase: true,
    async run(_db, _args, io, config) {
      let lock: { release(): void };
      try {
        lock = lockDataDir(config.dataDir, 'command');
      } catch (err) {
        if (err instanceof DataDirInUse)
          fail(
            'CONFLICT',
            `${err.who} ${err.byServer ? 'Stop it first (systemctl stop nodekeep): it would start its daemons again.' : 'Wait for it to finish, then try again.'}`,
          );
        throw err;
      }
      try {
        const engine = new LocalEngine({
          dir: path.join(config.dataDir, 'fleet', 'local'),
          log: quietLog,
          simulatorCommand: [],
        });
        const stopped = await engine.stopLeftRunning();
        io.out(
          stopped.length
            ? `stopped ${stopped.length} daemon${stopped.length === 1 ? '' : 's'}: ${stopped.join(', ')}`
            : 'no daemons were running',
        );
        if (stopped.length) io.out('The next start of the server starts them again.');
      } finally {
        lock.release();
      }
    },
  },
  'fleet create': {
    usage: 'fleet create <coin> --user <name|email> --plan dedicated|cloud',
    summary: 'run a node for a user (the server starts it on a host with capacity)',
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['user', 'plan']);
      if (positional.length !== 1) throw new UsageError('fleet create takes one coin id');
      if (flags.plan !== 'dedicated' && flags.plan !== 'cloud')
        throw new UsageError('--plan must be dedicated or cloud');
      if (!flags.user) throw new UsageError('--user is required');
      const user = await findUserByLogin(db, flags.user);
      if (!user) fail('NOT_FOUND', `no user "${flags.user}"`);
      // What the server will place and start the node with, not this shell's environment.
      const fleet = await serverFleet(db, config);
      const profiles = loadProfiles(fleet.profilesFile ?? bundledCatalogPath('daemons.json'));
      const facts = loadDaemonFacts(fleet.factsDir ?? bundledCatalogPath('daemon-facts'));
      try {
        const node = await requestNode(
          db,
          { profiles, facts, log: quietLog, simulator: fleet.simulator },
          { userId: user.id, coinId: positional[0].toLowerCase(), plan: flags.plan },
        );
        await logOperatorAction(db, io.by, 'fleet create', { node: node.mn_id, user_id: user.id });
        io.out(`node ${node.mn_id} requested; the running server places and starts it`);
      } catch (err) {
        throw usageOrRefusal(err);
      }
    },
  },
  'fleet logs': {
    usage: 'fleet logs <node> [--tail N]',
    summary: "the last lines of a node's daemon output",
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['tail']);
      const node = await requireNode(db, positional[0]);
      io.out(
        await asUsage(() =>
          nodeLogs(
            { db, box: openSecretBox(config.dataDir, config), config, log: quietLog },
            node.mn_id,
            count(flags.tail, 'tail', 100),
          ),
        ),
      );
    },
  },
  'fleet restart': {
    usage: 'fleet restart <node>',
    summary: `restart a node's daemon and wait (up to ${RESTART_WAIT_MS / 1000} s) for the running server's answer: answering, or why not`,
    async run(db, args, io) {
      const node = await requireNode(db, args[0]);
      io.out(`restarting ${node.mn_id}…`);
      const r = await asUsage(() => restartNode(db, io.by, node.mn_id));
      // The message may quote the engine's or the daemon's error: kept on its one line.
      if (r.outcome !== 'answering') fail('SERVICE_UNAVAILABLE', f(r.message));
      io.out(f(r.message));
    },
  },
  'fleet destroy': {
    usage: 'fleet destroy <node> [--reason <text>]',
    summary: 'destroy a node and its data (cannot be undone)',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['reason']);
      const node = await requireNode(db, positional[0]);
      await asUsage(() => destroyNode(db, io.by, node.mn_id, flags.reason ?? null));
      io.out(`node ${node.mn_id} is deleted; the running server removes its daemon and data`);
    },
  },
  'fleet upgrade': {
    usage: 'fleet upgrade <coin> <version> [--batch-size <n>]',
    summary:
      "move a coin's nodes to a new daemon version: a canary, then batches of n (default 10), each healthy before the next; a failed batch is rolled back (the console's Upgrades page does the same)",
    async run(db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['batch-size']);
      if (positional.length !== 2) throw new UsageError('fleet upgrade takes a coin and a version');
      const batch = flags['batch-size'] ?? '10';
      if (!/^\d{1,4}$/.test(batch)) throw new UsageError('--batch-size must be a whole number from 1 to 1000');
      const profiles = loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json'));
      const r = await asUsage(() =>
        startRollout(db, { profiles }, io.by, {
          coinId: positional[0],
          version: positional[1],
          batchSize: Number(batch),
        }),
      );
      io.out(
        `upgrade #${r.id}: ${r.nodes} node(s) to ${positional[1]}${r.skipped ? `, ${r.skipped} skipped (their daemon cannot change version where it runs)` : ''}; the running server carries it out (see \`fleet upgrades\`)`,
      );
    },
  },
  'fleet upgrades': {
    usage: 'fleet upgrades',
    summary: 'recent daemon upgrades with their progress',
    async run(db, _args, io, config) {
      const profiles = loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json'));
      io.out(
        ['id', 'coin', 'from', 'to', 'state', 'batch', 'healthy', 'failed', 'pending', 'skipped', 'reason'].join('\t'),
      );
      for (const r of (await upgradesOverview(db, { profiles })).rollouts) {
        const c = r.counts;
        io.out(
          [
            r.id,
            r.coin_id,
            r.from_version ?? '-',
            r.to_version,
            r.state,
            `${Math.min(r.current_batch, r.batches)}/${r.batches}`,
            c.healthy,
            c.failed,
            (c.pending ?? 0) + (c.upgrading ?? 0),
            c.skipped,
            f(r.reason ?? ''),
          ].join('\t'),
        );
      }
    },
  },
  'jobs failed': {
    usage: 'jobs failed',
    summary: 'background jobs that gave up, with their reason',
    async run(db, _args, io) {
      io.out(['id', 'job', 'attempts', 'failed at', 'reason'].join('\t'));
      for (const j of await failedQueue(db))
        // A job's error may quote a customer's webhook reply: one line, one column.
        io.out([j.id, j.name, j.attempts, new Date(j.updated_at).toISOString(), f(j.last_error ?? '-')].join('\t'));
    },
  },
  'jobs retry': {
    usage: 'jobs retry <id>',
    summary: 'queue a failed job again (see `jobs failed`)',
    async run(db, args, io) {
      if (args.length !== 1 || !/^\d{1,12}$/.test(args[0]))
        throw new UsageError('jobs retry takes one job id (see `jobs failed`)');
      await asUsage(() => retryFailedJob(db, io.by, Number(args[0])));
      io.out(`job ${args[0]} queued again`);
    },
  },
};
