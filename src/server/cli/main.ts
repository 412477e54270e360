import { userCommands } from '../auth/cli';
import { billingCommands } from '../billing/cli';
import { couponCommands } from '../billing/coupons/cli';
import { depositCommands } from '../billing/crypto/cli';
import { catalogCommands } from '../coins/cli';
import { fleetCommands } from '../nodes/cli';
import { coinCheckCommands } from '../nodes/coin-check-cli';
import { imageCommands } from '../nodes/images-cli';
import { backupCommands } from '../ops/backup-cli';
import { logCommands } from '../console/cli';
import { doctorCommands } from '../ops/doctor-cli';
import { healthcheckCommands } from '../ops/healthcheck-cli';
import { BackupError, writeBackup } from '../ops/backup';
import { bundledCatalogPath, importCatalog } from '../coins/import';
import { loadConfig } from '../kernel/config';
import { AppError } from '../kernel/errors';
import { assertDataDirOwner, DataDirOwner } from '../db/data-dir';
import { checkDataFolder, commandEnv, DataFolderRefused } from './data-folder';
import { openDatabase, type DB } from '../db/open';
import { sql } from 'kysely';
import { DatabaseTooNew, UpgradeFailed, UpgradeNeedsServer, upgradeForCommandLine } from '../db/upgrade';
import { operatorCommands } from '../operator/cli';
import { cliActor } from '../operator/log';
import { terminalLine } from '../kernel/terminal';
import { cliPrefix } from '../runtime/executable';
import type { CliCommand } from '../db/cli-command';
import type { CliIo } from '../kernel/cli';
import { UsageError } from '../kernel/cli';

/**
 * The operator's command line. It opens the same DATA_DIR as the server (SQLite in
 * WAL mode lets both work at once); what it changes reaches the running server
 * through the database, live events included.
 */
const commands: Record<string, CliCommand> = {
  ...operatorCommands,
  ...userCommands,
  ...billingCommands,
  ...couponCommands,
  ...depositCommands,
  ...catalogCommands,
  ...fleetCommands,
  ...coinCheckCommands,
  ...imageCommands,
  ...backupCommands,
  ...logCommands,
  ...doctorCommands,
  ...healthcheckCommands,
};

/** How the operator runs a command: from a checkout, or the single executable (`nodekeep`): runtime's `cliPrefix`. */
export type CliProgram = string;

function help(io: CliIo, prog: CliProgram) {
  io.out(`usage: ${prog} <command>\n`);
  for (const c of Object.values(commands)) io.out(`  ${c.usage.padEnd(72)} ${c.summary}`);
}

/** Finds the longest command name that prefixes the arguments ("users show" before "users"). */
function pick(argv: string[]): [CliCommand, string[]] | null {
  for (let n = Math.min(2, argv.length); n >= 1; n--) {
    const cmd = commands[argv.slice(0, n).join(' ')];
    if (cmd) return [cmd, argv.slice(n)];
  }
  return null;
}

export async function runCli(
  argv: string[],
  env = process.env,
  rawIo: Pick<CliIo, 'out'> = { out: (l) => process.stdout.write(l + '\n') },
  prog: CliProgram = cliPrefix,
): Promise<number> {
  // Every line any command prints passes here: no terminal control reaches the operator.
  const io: CliIo = { out: (l) => rawIo.out(terminalLine(l)), by: cliActor() };
  if (!argv.length || argv[0] === 'help' || argv[0] === '--help') {
    help(io, prog);
    return argv.length ? 0 : 2;
  }
  // `--init`, anywhere on the line: this command may make a new data folder.
  const init = argv.includes('--init');
  argv = argv.filter((a) => a !== '--init');
  let config: ReturnType<typeof loadConfig>;
  let dataDirFrom: string | null;
  try {
    ({ env, dataDirFrom } = commandEnv(env));
    config = loadConfig(env);
  } catch (err) {
    if (!(err instanceof DataFolderRefused)) throw err;
    process.stderr.write(terminalLine(`error: ${err.message}\n`));
    return 1;
  }
  const found = pick(argv);
  if (!found) {
    process.stderr.write(terminalLine(`unknown command: ${argv.join(' ')}\n`));
    help(io, prog);
    return 2;
  }
  try {
    if (!found[0].withoutDatabase) checkDataFolder(config, env, init);
    assertDataDirOwner(config.dataDir, config.dbFile);
  } catch (err) {
    if (!(err instanceof DataDirOwner) && !(err instanceof DataFolderRefused)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return 1;
  }
  if (found[0].withoutDatabase) return runStandalone(found[0], found[1], io, config, prog);
  const db = openDatabase(config.dbFile);
  try {
    // A newer build's data is refused with what to do, before anything is migrated; an
    // earlier build's is upgraded as a server start would, never under a running server.
    const readsOnly = found[0].readsOnly === true;
    const upgraded = readsOnly ? { backup: null, applied: [] } : await upgradeForCommandLine(db, config, writeBackup);
    // On stderr: what a command prints on stdout may be read by a script (a CSV export).
    if (upgraded.backup)
      process.stderr.write(
        terminalLine(
          `The database was from an earlier Nodekeep: backed up to ${upgraded.backup}, then upgraded (${upgraded.applied.length} migrations).\n`,
        ),
      );
    // The same starting catalog the server seeds, so the CLI works before the first start.
    if (!readsOnly) await importCatalog(db, bundledCatalogPath(), 'seed');
    const before = await changesSoFar(db);
    await found[0].run(db, found[1], io, config);
    // A change made in a folder the operator did not name: say which (on stderr, where a
    // script reading the output does not see it).
    if (dataDirFrom && (await changesSoFar(db)) > before)
      process.stderr.write(terminalLine(`(changed the data in ${config.dataDir}: ${dataDirFrom})\n`));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(terminalLine(`error: ${err.message}\nusage: ${prog} ${found[0].usage}\n`));
      return 2;
    }
    // A rule a service refused (a domain error): the operator reads its message, no stack.
    if (
      err instanceof AppError ||
      err instanceof BackupError ||
      err instanceof DatabaseTooNew ||
      err instanceof UpgradeFailed ||
      err instanceof UpgradeNeedsServer
    ) {
      process.stderr.write(`error: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await db.destroy();
  }
}

/** Rows this connection has written since it opened (SQLite's own count). */
async function changesSoFar(db: DB): Promise<number> {
  const { rows } = await sql<{ n: number }>`select total_changes() as n`.execute(db);
  return rows[0].n;
}

/** A command that must not hold the database open (it replaces it): the same error handling, no database. */
async function runStandalone(
  cmd: CliCommand,
  args: string[],
  io: CliIo,
  config: ReturnType<typeof loadConfig>,
  prog: CliProgram,
): Promise<number> {
  try {
    await cmd.run(undefined as never, args, io, config);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(terminalLine(`error: ${err.message}\nusage: ${prog} ${cmd.usage}\n`));
      return 2;
    }
    if (err instanceof AppError || err instanceof BackupError) {
      process.stderr.write(`error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
