import { runCli } from '../../src/server/cli/main';

export type CliRun = { code: number; out: string; err: string };

/**
 * The operator's command line in this process, as `nodekeep <argv>` on the data folder
 * of `env`: its exit code, what it printed, and what it wrote to stderr (kept off the
 * test's own output).
 */
export async function cliRun(argv: string[], env: Record<string, string>): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((c: string | Uint8Array) => (err.push(String(c)), true)) as typeof process.stderr.write;
  try {
    return { code: await runCli(argv, env, { out: (l) => out.push(l) }), out: out.join('\n'), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
}
