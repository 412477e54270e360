import type { CliCommand } from '../db/cli-command';
import { parseFlags, UsageError } from '../kernel/cli';
import { fail } from '../kernel/errors';
import { probeReadyz, readyzUrl } from './healthcheck';

export const healthcheckCommands: Record<string, CliCommand> = {
  healthcheck: {
    usage: 'healthcheck [--url <url>]',
    summary:
      "GET the running server's /readyz (HOST and PORT, or --url); exit 0 when it answers 200 (a container's HEALTHCHECK)",
    // It asks the server over HTTP: opening (or migrating) the database beside it would be
    // a second writer every probe interval.
    withoutDatabase: true,
    async run(_db, args, io, config) {
      const { positional, flags } = parseFlags(args, ['url']);
      if (positional.length) throw new UsageError(`unexpected argument ${positional[0]}`);
      if (flags.url !== undefined && !/^https?:\/\/[^/]/.test(flags.url))
        throw new UsageError('--url must be an http(s) address, e.g. http://127.0.0.1:8080/readyz');
      const result = await probeReadyz(flags.url ?? readyzUrl(config));
      if (!result.ok) fail('SERVICE_UNAVAILABLE', result.detail);
      io.out(result.detail);
    },
  },
};
