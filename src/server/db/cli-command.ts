import type { Config } from '../kernel/config';
import type { CliIo } from '../kernel/cli';
import type { DB } from './open';

/**
 * One command of the operator's command line (cli/main.ts lists them). It runs on the
 * database, so its type is here; the rest of the kit (flags, usage errors) is kernel/cli.ts,
 * below db/.
 */
export type CliCommand = {
  /** e.g. "maintenance on|off" */
  usage: string;
  summary: string;
  run(db: DB, args: string[], io: CliIo, config: Config): Promise<void>;
  /** Runs without opening (or migrating) the database: a command that replaces it (restore). */
  withoutDatabase?: true;
  /**
   * Reads the database and changes nothing in it: no migration, no catalog seed (doctor,
   * run with a new executable before its upgrade, must not upgrade the data).
   */
  readsOnly?: true;
};
