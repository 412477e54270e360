import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import type { Logger } from '../../kernel/log';
import type { EngineHost } from '../daemon-node';
import type { CloseOptions, NodeEngine } from '../engine';
import { LocalEngine } from './local';
import { inExecutable } from '../../runtime/executable';

/** The executable's hidden command that runs the simulator (src/server/nodekeep.ts). */
export const SIMULATOR_COMMAND = '__simulator';

/** How to start the coin-daemon simulator: the executable itself, the bundle's script, or the source under tsx. */
export function simulatorCommand(): string[] {
  if (inExecutable) return [process.execPath, SIMULATOR_COMMAND];
  const bundled = fileURLToPath(new URL('./simulator.js', import.meta.url));
  if (fs.existsSync(bundled)) return [process.execPath, bundled];
  const source = fileURLToPath(new URL('../simulator/main.ts', import.meta.url));
  // Resolved here: the child runs in the node's folder, where a bare "tsx" is not found.
  return [process.execPath, '--import', import.meta.resolve('tsx'), source];
}

/** Makes the Docker engine of a remote host; nodes/ hands in its host rows, whose connection it knows. */
export type DockerEngineFactory<H extends EngineHost = EngineHost> = (host: H, log: Logger) => NodeEngine;

/**
 * One engine per host: the local engine for this machine, a Docker Engine API client
 * per remote host. Engines are made on first use and closed together.
 */
export class EngineRegistry<H extends EngineHost = EngineHost> {
  private engines = new Map<number, NodeEngine>();
  readonly local: LocalEngine;

  constructor(
    dataDir: string,
    private readonly log: Logger,
    private readonly dockerFactory?: DockerEngineFactory<H>,
    simulator = false,
  ) {
    this.local = new LocalEngine({
      dir: path.join(dataDir, 'fleet', 'local'),
      log,
      simulatorCommand: simulatorCommand(),
      simulator,
    });
  }

  for(host: H): NodeEngine {
    if (host.engine === 'local') return this.local;
    let e = this.engines.get(host.id);
    if (!e) {
      if (!this.dockerFactory) throw new Error(`no docker engine support in this process for host ${host.name}`);
      e = this.dockerFactory(host, this.log);
      this.engines.set(host.id, e);
    }
    return e;
  }

  async close(opts: CloseOptions = {}): Promise<void> {
    await Promise.all([this.local.close(opts), ...[...this.engines.values()].map((e) => e.close(opts))]);
  }
}
