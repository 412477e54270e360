import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './log';
import { startServer } from './server';

async function main() {
  let config;
  try {
    // The bundle (dist/server/main.js) serves the client built beside it, wherever it is started from.
    const besideBundle = fileURLToPath(new URL('../client/', import.meta.url));
    config = loadConfig(process.env, fs.existsSync(`${besideBundle}index.html`) ? { clientDir: besideBundle } : {});
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee the Configuration table in README.md.\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const running = await startServer(config, log);
  process.stdout.write(`\n  Nodekeep is running at ${running.url}\n\n`);
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      log.info('shutting down', { signal: sig });
      running.close().then(
        () => process.exit(0),
        (err) => {
          log.error('shutdown failed', { err });
          process.exit(1);
        },
      );
    });
  }
}

main().catch((err) => {
  process.stderr.write(`Nodekeep failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
