import fs from 'node:fs';
import path from 'node:path';
import { bundledCatalogPath } from '../../src/server/coins/import';
import type { DaemonSpec } from '../../src/server/fleet/engine';
import { fill, loadProfiles, type BinaryProfile } from '../../src/server/fleet/profiles';
import { freePort } from '../../src/server/fleet/spec';

export const profiles = loadProfiles(bundledCatalogPath('daemons.json'));

export const haveBinary = (p: string) => fs.existsSync(p);

/** A spec for a real daemon from its catalog profile, with fresh ports and a config file written. */
export async function realDaemonSpec(profileId: 'litecoind-regtest' | 'monerod-regtest', nodeId: string, dataRoot: string): Promise<{ spec: DaemonSpec; auth: { user: string; password: string } }> {
  const profile = profiles[profileId] as BinaryProfile;
  const ports: Record<string, number> = {};
  for (const name of profile.ports) ports[name] = await freePort();
  const dataDir = path.join(dataRoot, nodeId);
  const auth = { user: 'test', password: `pw-${nodeId}` };
  const values = { data: dataDir, ports, rpcUser: auth.user, rpcPassword: auth.password };
  fs.mkdirSync(dataDir, { recursive: true });
  if (profile.config && profile.config_file) fs.writeFileSync(path.join(dataDir, profile.config_file), fill(profile.config, values));
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

/** Polls `fn` until it returns a truthy value or the time is up. */
export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
