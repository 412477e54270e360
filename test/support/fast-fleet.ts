import fs from 'node:fs';
import path from 'node:path';

/**
 * A server environment whose simulated daemons run on fast clocks: they sync in a second,
 * chains run 300 times faster (Dash's 150 s blocks every half second; the simulator
 * bounds the fastest block time), and the monitor checks every half second. Writes the
 * daemon profiles into `dataDir`.
 */
export function fastFleetEnv(dataDir: string): Record<string, string> {
  const profilesFile = path.join(dataDir, 'daemons.json');
  const shipped = JSON.parse(fs.readFileSync('catalog/daemons.json', 'utf8'));
  for (const p of Object.values<{ run?: string; sync_seconds?: number; time_scale?: number }>(shipped.profiles)) {
    if (p.run !== 'simulator') continue;
    p.sync_seconds = 1;
    p.time_scale = 300;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(profilesFile, JSON.stringify(shipped));
  return {
    MONITOR_NODE_SECONDS: '0.5',
    MONITOR_NETWORK_SECONDS: '0.5',
    DAEMON_PROFILES_FILE: profilesFile,
    FLEET_SIMULATOR: 'true',
  };
}
