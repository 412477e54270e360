// The operator's command line (dist/server/cli.js, `npm run nodekeep`): the domains' hooks are
// wired first, as in every process (domain-hooks.ts).
import './domain-hooks';
import { ConfigError } from './kernel/config';
import { runCli } from './cli/main';
import { failureLine } from './kernel/terminal';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(failureLine(err, err instanceof ConfigError));
    process.exit(1);
  },
);
