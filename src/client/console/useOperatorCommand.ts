import { operatorCommandLine } from '../../shared/operator-command';
import { trpc } from '../app/trpc';

/**
 * A command line as this install's operator types it: the console's gate already asked
 * the server (`console.access`) whether it runs as the single executable, so the answer
 * is cached here. Until then, the bare command.
 */
export function useOperatorCommand(): (command: string) => string {
  const access = trpc.console.access.useQuery(undefined, { staleTime: 60_000, retry: false });
  return (command) => (access.data ? operatorCommandLine(access.data.executable, command) : command);
}
