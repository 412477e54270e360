import { startSimulator } from './server';

/**
 * The simulator as its own process (run by the local engine; `simulatorCommand`):
 *   simulator --state <file> [--port N] [--host 127.0.0.1]
 * Prints one JSON line {"simulator":true,"listening":<port>} once ready.
 */
export async function runSimulatorProcess(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const stateFile = arg('state');
  if (!stateFile) {
    process.stderr.write('usage: simulator --state <file> [--port N] [--host H]\n');
    process.exit(2);
  }
  const host = arg('host') ?? '127.0.0.1';
  // Keep the last port when it is free (nodes' endpoints stay the same); else any port.
  const sim = await startSimulator({ stateFile, port: Number(arg('port') ?? 0), host }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') throw err;
      return startSimulator({ stateFile, port: 0, host });
    },
  );
  process.stdout.write(
    `${JSON.stringify({ simulator: true, msg: 'COIN-DAEMON SIMULATOR listening', listening: sim.port })}\n`,
  );
  for (const sig of ['SIGTERM', 'SIGINT'] as const)
    process.once(sig, () => void sim.close().then(() => process.exit(0)));
}
