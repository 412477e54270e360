import type { CliCommand } from '../db/cli-command';
import { fail } from '../kernel/errors';
import { createLogger } from '../kernel/log';
import { runDoctor } from './doctor';

export const doctorCommands: Record<string, CliCommand> = {
  doctor: {
    usage: 'doctor',
    summary:
      'check the configuration and what it points at (data folder, disk, SMTP, Stripe keys, deposit daemons, Docker hosts, PUBLIC_URL, clock); exit 0 only when all pass',
    readsOnly: true,
    async run(db, _args, io, config) {
      // The engines' own log lines would interleave with the report: errors only.
      const results = await runDoctor(config, db, createLogger('error'));
      for (const r of results) {
        const mark = !r.ok ? 'FAIL' : r.warning ? 'warn' : 'ok  ';
        io.out(`${mark}  ${r.name}: ${r.detail}${r.ok && !r.warning ? '' : r.advice ? ` — ${r.advice}` : ''}`);
      }
      const failed = results.filter((r) => !r.ok).length;
      if (failed) fail('SERVICE_UNAVAILABLE', `${failed} of ${results.length} checks failed`);
      const warned = results.filter((r) => r.warning).length;
      io.out(`all ${results.length} checks passed${warned ? `, ${warned} with a warning` : ''}`);
    },
  },
};
