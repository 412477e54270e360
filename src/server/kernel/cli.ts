import { AppError } from './errors';
import type { OperatorActor } from './actor';

/** `by`: who runs the command, for the operator log (the OS user). */
export type CliIo = { out: (line: string) => void; by: OperatorActor };

/** A mistake in the operator's command line: shown with the usage, exit code 2. */
export class UsageError extends Error {}

/**
 * What a shared service (the console's too) threw, as the command line shows it: a value
 * it refused as malformed (BAD_REQUEST) is a mistake in the command line (usage, exit 2);
 * any other refusal (not found, a conflict, a rule) is its message alone (exit 1).
 */
export function usageOrRefusal(err: unknown): unknown {
  return err instanceof AppError && err.code === 'BAD_REQUEST' ? new UsageError(err.message) : err;
}

/** Runs a shared service's call, its errors shown as `usageOrRefusal` says. */
export async function asUsage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw usageOrRefusal(err);
  }
}

/** `--name value` options after the positional arguments. */
export function parseFlags(args: string[], known: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const name = a.slice(2);
      if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = args[++i];
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      flags[name] = value;
    } else positional.push(a);
  }
  return { positional, flags };
}
