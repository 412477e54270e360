import { ConfigError, loadConfig, type Config } from './kernel/config';
import { DataDirOwner } from './db/data-dir';
import { DatabaseTooNew, UpgradeFailed } from './db/upgrade';
import { createLogger } from './kernel/log';
import { inExecutable, removeOtherBuilds } from './runtime/executable';
import { SERVICE_ENV_FILE } from './cli/data-folder';
import { keepRunningWithoutOutput } from './runtime/pipes';
import { startServer } from './server';

/** SIGTERM's promise: the process is gone within this, whatever is still running (systemd waits 20 s). */
export const STOP_DEADLINE_MS = 9_000;
/** Ctrl-C stops the daemons as well, each given up to 20 s before SIGKILL (after the drain). */
export const STOP_WITH_DAEMONS_DEADLINE_MS = 40_000;
/** The data folder needs the operator (a failed upgrade, a newer build's database): restarting cannot help. */
export const EXIT_NEEDS_OPERATOR = 3;
/** A second signal sooner than this is the same stop delivered twice. */
const REPEAT_MS = 1_000;

/** Where a wrong setting is put right: the executable comes without the checkout's README. */
export function configurationHint(executable = inExecutable): string {
  return executable
    ? `Settings are environment variables; the service reads them from ${SERVICE_ENV_FILE}.`
    : 'See the Configuration table in README.md.';
}

/**
 * The server as a process: configuration from the environment (a clear message and
 * exit 2 when it is wrong), the start, and the stop on SIGTERM or SIGINT. Shared by
 * dist/server/main.js and the single executable's `serve`.
 */
export async function runServer(defaults: Partial<Pick<Config, 'clientDir'>> = {}): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env, defaults);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n${configurationHint()}\n`);
      process.exit(2);
    }
    throw err;
  }
  keepRunningWithoutOutput();
  const log = createLogger(config.logLevel);
  const running = await startServer(config, log).catch((err: unknown) => {
    process.stderr.write(`Nodekeep failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    // The same start would fail the same way (and write another pre-upgrade backup):
    // the unit does not restart on this code (RestartPreventExitStatus).
    process.exit(
      err instanceof UpgradeFailed || err instanceof DatabaseTooNew || err instanceof DataDirOwner
        ? EXIT_NEEDS_OPERATOR
        : 1,
    );
  });
  // This process holds the data folder now: what earlier builds of the executable unpacked can go.
  const removed = removeOtherBuilds();
  if (removed.length) log.info('files of earlier builds removed', { builds: removed });
  process.stdout.write(`\n  Nodekeep is running at ${running.url}\n\n`);
  // SIGTERM is a service manager's stop or restart: the coin daemons keep running (they
  // are in their own process groups; the unit's KillMode=process leaves them alone) and
  // the next start adopts them, so a restart or an upgrade restarts no node. SIGINT is
  // Ctrl-C in a terminal (`npm start`): the operator is done, and the daemons stop too.
  // `npm start` and a terminal both deliver one Ctrl-C to the server (npm forwards what
  // the terminal already sent): a repeat within REPEAT_MS is that echo. A later one is
  // the operator insisting, and ends the process at once.
  let stopping = 0;
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      if (stopping) {
        if (Date.now() - stopping < REPEAT_MS) return;
        log.warn('asked again to stop; exiting now', { signal: sig });
        process.exit(1);
      }
      stopping = Date.now();
      const keepDaemons = sig === 'SIGTERM';
      log.info('shutting down', { signal: sig, daemons: keepDaemons ? 'keep running' : 'stop' });
      const limitMs = keepDaemons ? STOP_DEADLINE_MS : STOP_WITH_DAEMONS_DEADLINE_MS;
      const deadline = setTimeout(() => {
        log.error('shutdown took too long; exiting now', { deadline_ms: limitMs });
        process.exit(1);
      }, limitMs);
      deadline.unref();
      running.close({ keepDaemons }).then(
        () => process.exit(0),
        (err) => {
          log.error('shutdown failed', { err });
          process.exit(1);
        },
      );
    });
  }
}
