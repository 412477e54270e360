import { logActorText, logDetailText } from '../../shared/log-detail';
import { operatorLogQuery } from '../../shared/schemas/console';
import type { CliCommand } from '../db/cli-command';
import { parseFlags, UsageError } from '../kernel/cli';
import { terminalField as f } from '../kernel/terminal';
import { readOperatorLog } from './log-view';

export const logCommands: Record<string, CliCommand> = {
  log: {
    usage: 'log [--action <action>] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--limit N]',
    summary: "the operator log, newest first: who did what, from where, in words (the console's Log page)",
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['action', 'since', 'until', 'limit']);
      if (positional.length) throw new UsageError(`log takes no arguments but its options (got ${positional[0]})`);
      // The console's own query schema: the same rules and words for a bad day or limit.
      const q = operatorLogQuery.safeParse({
        action: flags.action,
        from: flags.since,
        to: flags.until,
        per_page: flags.limit ?? '50',
      });
      if (!q.success)
        throw new UsageError(
          q.error.issues
            .map(
              (i) =>
                `--${{ from: 'since', to: 'until', per_page: 'limit' }[String(i.path[0])] ?? String(i.path[0])} ${i.message}`,
            )
            .join('; '),
        );
      const { lines, total } = await readOperatorLog(db, q.data);
      if (!lines.length) return io.out('no log lines match');
      for (const l of lines) {
        // Details hold customers' words (a delete reason, a name): one line per entry, so
        // a line break in them cannot print entries that never happened.
        const detail = f(logDetailText(l.detail));
        io.out(
          `${l.at.slice(0, 10)} ${l.at.slice(11, 19)} UTC  ${f(logActorText(l))} (${f(l.address)})  ${f(l.action)}${detail ? `: ${detail}` : ''}`,
        );
      }
      if (total > lines.length) io.out(`(${lines.length} of ${total} lines: --limit or --since for more)`);
    },
  },
};
