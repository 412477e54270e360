import fs from 'node:fs';
import { parseEnv } from 'node:util';

/** Where the service's environment file is installed (docs/self-hosting.md). */
export const SERVICE_ENV_FILE = '/etc/nodekeep/nodekeep.env';

/**
 * The environment a command runs with, and where its DATA_DIR came from when the
 * command's own environment did not name it (null: it did): the service's environment file first (named by
 * NODEKEEP_ENV_FILE, else the installed one when it exists), then the command's own
 * environment on top. So `nodekeep <command>` on the server's machine opens the server's
 * DATA_DIR, not a new `./data` wherever the operator stands.
 */
export function commandEnv(
  env: NodeJS.ProcessEnv,
  serviceFile = SERVICE_ENV_FILE,
): { env: NodeJS.ProcessEnv; dataDirFrom: string | null } {
  const named = env.NODEKEEP_ENV_FILE;
  const file = named || (fs.existsSync(serviceFile) ? serviceFile : null);
  if (!file) return { env, dataDirFrom: env.DATA_DIR === undefined ? 'DATA_DIR is not set' : null };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DataFolderRefused(
      `the environment file ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied: run the command as the service user or root' : (err as Error).message})`,
    );
  }
  const fromFile = parseEnv(text);
  const dataDirFrom =
    env.DATA_DIR !== undefined ? null : fromFile.DATA_DIR !== undefined ? `from ${file}` : 'DATA_DIR is not set';
  return { env: { ...fromFile, ...env }, dataDirFrom };
}

export class DataFolderRefused extends Error {}

/**
 * A command opens an existing data folder only: one with the server's database, or one
 * DATA_DIR names that exists (a folder prepared for the server's first start). Making a
 * new one elsewhere is the server's first start or an explicit `--init`; without this,
 * a command run from the wrong folder made an empty `./data` and said it had done its work.
 */
export function checkDataFolder(cfg: { dataDir: string; dbFile: string }, env: NodeJS.ProcessEnv, init: boolean): void {
  if (init || fs.existsSync(cfg.dbFile)) return;
  if (env.DATA_DIR === undefined)
    throw new DataFolderRefused(
      `no Nodekeep data in ${cfg.dataDir} (DATA_DIR is not set, so ./data was tried): set DATA_DIR to the server's data folder, or NODEKEEP_ENV_FILE to its environment file. Nothing was changed. To make a new data folder there, add --init.`,
    );
  if (!fs.existsSync(cfg.dataDir))
    throw new DataFolderRefused(
      `DATA_DIR ${cfg.dataDir} does not exist: set DATA_DIR to the server's data folder. Nothing was changed. To make a new data folder there, add --init.`,
    );
}
