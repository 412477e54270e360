import type { CliCommand } from '../db/cli-command';
import { UsageError } from '../kernel/cli';
import { migrations } from '../../../migrations';
import { backupFileName, restoreBackup, writeBackup } from './backup';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export const backupCommands: Record<string, CliCommand> = {
  backup: {
    usage: 'backup [file]',
    summary:
      'a consistent copy of the database (safe while the server runs) and the secrets key, in one .tar.gz (default: BACKUP_DIR)',
    // Copies whatever the database is, migrating nothing: a backup is taken before an upgrade, or of a newer build's data.
    withoutDatabase: true,
    async run(_db, args, io, config) {
      if (args.length > 1) throw new UsageError('backup takes at most a file name');
      const r = await writeBackup(
        config.dataDir,
        config.dbFile,
        args[0] ?? backupFileName(config.backupDir, Date.now()),
      );
      io.out(
        `backup written: ${r.file} (${mib(r.bytes)})${r.withKey ? '' : '. It holds no secrets key: the data folder has no key file (SECRETS_KEY is set, or the server has not started yet), so keep the key apart; stored node keys open only with it'}`,
      );
    },
  },
  restore: {
    usage: 'restore <file>',
    summary:
      'replace the database and secrets key with a backup, after checking it (the server must be stopped; the old files are kept aside)',
    withoutDatabase: true,
    async run(_db, args, io, config) {
      if (args.length !== 1) throw new UsageError('restore takes the backup file');
      const r = await restoreBackup(config.dataDir, config.dbFile, args[0], Object.keys(migrations));
      io.out(
        `restored ${args[0]} into ${config.dataDir} (${r.migrations} migrations)${r.keptIn ? `; the previous files are in ${r.keptIn}` : ''}. Start the server${r.withKey ? '' : ' with the secrets key the backup was made with (it holds no key file: give the same SECRETS_KEY)'}.`,
      );
    },
  },
};
