// The operator's command line (dist/server/cli.js, `npm run nodekeep`): the domains' hooks are
// wired first, as in every process (domain-hooks.ts).
import './domain-hooks';
import { ConfigError } from './kernel/config';
import { runCli } from './cli/main';
import { terminalLine } from './kernel/terminal';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      terminalLine(
        err instanceof ConfigError
          ? `${err.message}\n`
          : `error: ${err instanceof Error ? err.message : String(err)}\n`,
      ),
    );
    process.exit(1);
  },
);
