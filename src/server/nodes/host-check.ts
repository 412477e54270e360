import { operatorIds } from '../auth/users';
import type { DB } from '../db/open';
import type { Host } from '../db/schema';
import { errorText } from '../jobs/attempt';
import type { Logger } from '../kernel/log';
import { raise } from '../notifications/raise';
import { logOperatorAction, systemActor } from '../operator/log';
import type { DiskSpace } from '../fleet/engine';
import type { EngineRegistry } from '../fleet/engines/registry';
import { listHosts, updateHost } from './fleet-queries';

export type HostCheckOptions = {
  /** Below this many free bytes a host is short of disk; 0: no threshold (disk is still recorded). */
  minFreeBytes: number;
  /** One host's answer may take this long (a remote Docker API). */
  timeoutMs?: number;
};

/** Back above the threshold by this share before a host counts as recovered (no alert per wobble at the line). */
export const RECOVER_MARGIN = 1.05;

/** Gigabytes to two decimals (10^9 bytes, as the threshold is given). */
const gb = (bytes: number) => Math.round(bytes / 1e7) / 100;

/**
 * What a measurement means for the host's mark: `low` (just crossed below: alert),
 * `recovered` (back above the threshold with a margin: the mark is cleared and a next
 * crossing alerts again), or `same` (no change of state). Pure: the rule in one place.
 */
export function diskTransition(
  lowSince: number | null,
  freeBytes: number,
  minFreeBytes: number,
): 'low' | 'recovered' | 'same' {
  if (minFreeBytes <= 0) return lowSince === null ? 'same' : 'recovered';
  if (lowSince === null) return freeBytes < minFreeBytes ? 'low' : 'same';
  return freeBytes >= minFreeBytes * RECOVER_MARGIN ? 'recovered' : 'same';
}

function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * The fleet's host check (recurring job `fleet.hosts`): asks every host's engine for the
 * free space of its node-data disk and records it on the host. A host that falls below
 * the threshold is marked (placement passes it: placement.ts `takesNewNodes`) and every
 * operator is notified, with a log line and an operator-log entry, once per crossing;
 * the mark is cleared when it is back above. Returns whether anyone was notified.
 */
export async function checkHostDisks(
  db: DB,
  engines: EngineRegistry<Host>,
  log: Logger,
  opts: HostCheckOptions,
): Promise<boolean> {
  const hosts = (await listHosts(db)).filter((h) => h.state !== 'gone');
  const measured = await Promise.all(
    hosts.map(async (host) => {
      try {
        const engine = engines.for(host);
        const [disk, memory] = await Promise.all([
          within(opts.timeoutMs ?? 10_000, engine.disk?.() ?? Promise.resolve(null)),
          within(opts.timeoutMs ?? 10_000, engine.memory?.() ?? Promise.resolve(null)).catch(() => null),
        ]);
        return { host, disk: disk ?? null, memory: memory ?? null };
      } catch (err) {
        log.warn('host disk check failed', { host: host.name, error: errorText(err) });
        return { host, disk: null, memory: null };
      }
    }),
  );
  let alerted = false;
  for (const { host, disk, memory } of measured) {
    // Placement counts the nodes' committed memory against it (placement.ts fitsHost).
    if (memory !== null && memory !== host.memory_total_bytes)
      await updateHost(db, host.id, { memory_total_bytes: memory });
    if (disk) alerted = (await record(db, log, host, disk, opts.minFreeBytes)) || alerted;
  }
  return alerted;
}

async function record(db: DB, log: Logger, host: Host, disk: DiskSpace, minFreeBytes: number): Promise<boolean> {
  const now = Date.now();
  const change = diskTransition(host.disk_low_at, disk.freeBytes, minFreeBytes);
  const facts = {
    host: host.name,
    free_gb: gb(disk.freeBytes),
    total_gb: gb(disk.totalBytes),
    threshold_gb: gb(minFreeBytes),
  };
  const notified = await db.transaction().execute(async (trx) => {
    const lowAt = change === 'low' ? now : change === 'recovered' ? null : host.disk_low_at;
    await updateHost(trx, host.id, {
      disk_free_bytes: disk.freeBytes,
      disk_total_bytes: disk.totalBytes,
      disk_checked_at: now,
      disk_low_at: lowAt,
    });
    if (change === 'same') return 0;
    await logOperatorAction(trx, systemActor('host check'), change === 'low' ? 'host disk low' : 'host disk ok', {
      ...facts,
      path: disk.path,
    });
    if (change !== 'low') return 0;
    const operators = await operatorIds(trx);
    for (const id of operators) await raise(trx, id, 'host_disk_low', facts);
    return operators.length;
  });
  if (change === 'low')
    log.warn('host disk low: the host takes no new nodes', { ...facts, path: disk.path, operators_notified: notified });
  if (change === 'recovered') log.info('host disk ok again: the host takes new nodes', facts);
  return notified > 0;
}
