// Wires the domains' hooks before any command runs (a CLI command may raise a notice).
import './domain-hooks';
import { ConfigError } from './kernel/config';
import { runCli } from './cli/main';
import { SERVICE_ENV_FILE } from './cli/data-folder';
import { failureLine, terminalLine } from './kernel/terminal';
import { SIMULATOR_COMMAND } from './fleet/engines/registry';
import { runSimulatorProcess } from './fleet/simulator/process';
import { assetIndex, inExecutable, unpackedDir } from './runtime/executable';
import { runServer } from './serve';
import { installCommand } from './runtime/install-command';
import { INSTALL_USAGE } from './runtime/install';
import path from 'node:path';

/**
 * The single executable's entry (`npm run package`; docs/self-hosting.md): the server
 * and the operator CLI in one program.
 *   nodekeep [serve]          the server (the default)
 *   nodekeep <command> ...    an operator command
 *   nodekeep --version | help
 *   --env-file <file>         anywhere on the line: variables from a file (the environment's own win)
 */
const USAGE = `usage: nodekeep [--env-file <file>] [serve | <command> ... | --version | help]

  nodekeep serve            start the server (the default); its settings are
                            environment variables (the service's are in
                            ${SERVICE_ENV_FILE})
  nodekeep <command>        an operator command on the same DATA_DIR (list below)
  nodekeep install          install it as a systemd service (as root;
                            nodekeep install --help says how)
  nodekeep --version        this build's version
  --env-file <file>         read variables from a file first (KEY=value lines);
                            variables already in the environment win
`;

/** Takes `--env-file <file>` / `--env-file=<file>` out of the arguments and loads them. */
function loadEnvFiles(argv: string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let file: string | undefined;
    if (a === '--env-file') {
      file = argv[++i];
      if (!file) throw new ConfigError('--env-file needs a file: --env-file /etc/nodekeep/nodekeep.env');
    } else if (a.startsWith('--env-file=')) file = a.slice('--env-file='.length);
    else {
      rest.push(a);
      continue;
    }
    try {
      process.loadEnvFile(file);
    } catch (err) {
      throw new ConfigError(
        `--env-file ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      );
    }
  }
  return rest;
}

export function versionLine(): string {
  if (!inExecutable) return 'nodekeep (source checkout)';
  const { version, build } = assetIndex();
  return `nodekeep ${version} (build ${build}, node ${process.versions.node}, ${process.platform}-${process.arch})`;
}

async function main(): Promise<number | undefined> {
  const argv = loadEnvFiles(process.argv.slice(2));
  const [first] = argv;
  if (first === '--version' || first === '-v' || first === 'version') {
    process.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  if (first === 'help' || first === '--help' || first === '-h') {
    process.stdout.write(USAGE + '\n');
    return runCli(['help'], process.env);
  }
  if (first === 'install') {
    if (argv.includes('--help')) {
      process.stdout.write(INSTALL_USAGE);
      return 0;
    }
    return installCommand(argv.slice(1));
  }
  if (first === SIMULATOR_COMMAND) {
    await runSimulatorProcess(argv.slice(1));
    return undefined;
  }
  if (first === undefined || first === 'serve') {
    if (argv.length > 1) {
      process.stderr.write(`unexpected arguments after serve: ${argv.slice(1).join(' ')}\n${USAGE}`);
      return 2;
    }
    await runServer(inExecutable ? { clientDir: path.join(unpackedDir(), 'client') } : {});
    return undefined;
  }
  return runCli(argv, process.env);
}

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (err) => {
    process.stderr.write(failureLine(err, err instanceof ConfigError));
    process.exit(err instanceof ConfigError ? 2 : 1);
  },
);
