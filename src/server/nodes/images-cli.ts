import type { CliCommand } from '../db/cli-command';
import { bundledCatalogPath } from '../coins/import';
import { loadProfiles } from '../fleet/profiles';
import { parseFlags, UsageError } from '../kernel/cli';
import { fail } from '../kernel/errors';
import { createLogger } from '../kernel/log';
import { openSecretBox } from '../secrets/box';
import { requestImageBuild, runImageBuild } from './images';

const quietLog = createLogger('error');

/** `--build-arg NAME=value`, as often as needed (parseFlags keeps one value per option). */
function takeBuildArgs(args: string[]): { rest: string[]; buildArgs: Record<string, string> } {
  const rest: string[] = [];
  const buildArgs: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--build-arg') {
      rest.push(args[i]);
      continue;
    }
    const pair = args[++i];
    const eq = pair?.indexOf('=') ?? -1;
    if (!pair || eq < 1) throw new UsageError('--build-arg takes NAME=value');
    buildArgs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { rest, buildArgs };
}

export const imageCommands: Record<string, CliCommand> = {
  'images build': {
    usage: 'images build <profile> --host <name> [--build-arg NAME=value]...',
    summary: "build a profile's image from its recipe (catalog/images/<profile>) on a Docker/Podman host",
    async run(db, args, io, config) {
      const { rest, buildArgs } = takeBuildArgs(args);
      const { positional, flags } = parseFlags(rest, ['host']);
      if (positional.length !== 1) throw new UsageError('name one daemon profile (see catalog/daemons.json)');
      if (!flags.host) throw new UsageError('--host names the Docker/Podman host to build on (see `hosts list`)');
      const deps = {
        db,
        box: openSecretBox(config.dataDir, config),
        log: quietLog,
        profiles: loadProfiles(config.daemonProfilesFile ?? bundledCatalogPath('daemons.json')),
        config,
      };
      const id = await requestImageBuild(
        deps,
        io.by,
        { profile: positional[0], host: flags.host, buildArgs },
        { queue: false },
      );
      // Run here, its output to the terminal as it comes: the operator watches the build.
      // Ctrl-C stops the build and records it as stopped, rather than leaving it "running".
      const stop = new AbortController();
      const interrupt = () => stop.abort();
      process.once('SIGINT', interrupt);
      const result = await runImageBuild(deps, id, (line) => io.out(line), stop.signal).finally(() =>
        process.off('SIGINT', interrupt),
      );
      if (!result) fail('CONFLICT', `build ${id} was taken by another runner`);
      if (!result.ok) fail('BAD_REQUEST', `image build failed: ${result.message}`);
      io.out(`image ${result.image} built on host ${result.host}`);
    },
  },
};
