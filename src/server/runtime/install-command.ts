import readline from 'node:readline/promises';
import { inExecutable } from './executable';
import { hostSystem } from './install-system';
import { InstallRefused, parseInstallArgs, runInstall } from './install';
import { serviceUnitText } from './unit-file';

/** `nodekeep install …` from the executable: its exit code (2 when refused). */
export async function installCommand(argv: string[]): Promise<number> {
  try {
    const opts = parseInstallArgs(argv);
    if (!inExecutable)
      throw new InstallRefused(
        'nodekeep install copies the single executable: build it with `npm run package` and run that file.',
      );
    if (opts.root === '/' && !opts.dryRun && process.getuid?.() !== 0)
      throw new InstallRefused('nodekeep install changes the system: run it as root (or add --dry-run).');
    const tty = process.stdin.isTTY ? readline.createInterface({ input: process.stdin, output: process.stdout }) : null;
    try {
      await runInstall(
        opts,
        hostSystem(opts.root),
        { out: (l) => process.stdout.write(`${l}\n`), ask: tty ? (q) => tty.question(q) : null },
        process.execPath,
        serviceUnitText(),
      );
    } finally {
      tty?.close();
    }
    return 0;
  } catch (err) {
    if (!(err instanceof InstallRefused)) throw err;
    process.stderr.write(`${err.message.replace(/\n+$/, '')}\n`);
    return 2;
  }
}
