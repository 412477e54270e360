import type { CliCommand } from '../db/cli-command';
import { fail } from '../kernel/errors';
import { runDoctor } from './doctor';

export const doctorCommands: Record<string, CliCommand> = {
  doctor: {
    usage: 'doctor',
    summary:
      'check the configuration and what it points at (data folder, disk, SMTP, PUBLIC_URL, clock); exit 0 only when all pass',
    async run(_db, _args, io, config) {
      const results = await runDoctor(config);
      for (const r of results)
        io.out(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name}: ${r.detail}${r.ok || !r.advice ? '' : ` — ${r.advice}`}`);
      const failed = results.filter((r) => !r.ok).length;
      if (failed) fail('SERVICE_UNAVAILABLE', `${failed} of ${results.length} checks failed`);
      io.out(`all ${results.length} checks passed`);
    },
  },
};
