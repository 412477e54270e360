import { banner as bannerSchema } from '../../shared/schemas/console';
import type { CliCommand } from '../db/cli-command';
import { parseFlags, UsageError } from '../kernel/cli';
import { describeZodError } from '../rpc/trpc';
import { getBanner, isSignupOpen, setBanner, setMaintenance, setSignupOpen } from './platform';
import { isMaintenance } from './settings';

export const operatorCommands: Record<string, CliCommand> = {
  maintenance: {
    usage: 'maintenance [on|off]',
    summary: 'show or switch maintenance mode (private calls answer a maintenance error)',
    async run(db, args, io) {
      const [state] = args;
      if (state === undefined) {
        io.out(`maintenance is ${(await isMaintenance(db)) ? 'on' : 'off'}`);
        return;
      }
      if (state !== 'on' && state !== 'off') throw new UsageError('maintenance takes "on" or "off"');
      await setMaintenance(db, io.by, state === 'on');
      io.out(`maintenance is now ${state}`);
    },
  },
  signup: {
    usage: 'signup [open|closed]',
    summary: 'show or switch whether visitors may register',
    async run(db, args, io) {
      const [state] = args;
      if (state === undefined) return io.out(`sign-up is ${(await isSignupOpen(db)) ? 'open' : 'closed'}`);
      if (state !== 'open' && state !== 'closed') throw new UsageError('signup takes "open" or "closed"');
      await setSignupOpen(db, io.by, state === 'open');
      io.out(`sign-up is now ${state}`);
    },
  },
  banner: {
    usage: 'banner [clear | set <text> [--link <path|url>] [--colour info|success|warning|danger]]',
    summary: 'show, set or clear the alert banner every customer sees',
    async run(db, args, io) {
      const [verb, ...rest] = args;
      if (verb === undefined) {
        const b = await getBanner(db);
        return io.out(b ? `banner (${b.bg}): ${b.text}${b.link ? ` -> ${b.link}` : ''}` : 'no banner');
      }
      if (verb === 'clear' && rest.length === 0) {
        await setBanner(db, io.by, null);
        return io.out('banner cleared');
      }
      if (verb !== 'set') throw new UsageError('banner takes "set <text>" or "clear"');
      const { positional, flags } = parseFlags(rest, ['link', 'colour']);
      const parsed = bannerSchema.safeParse({
        text: positional.join(' '),
        link: flags.link ?? '',
        bg: flags.colour ?? 'info',
      });
      if (!parsed.success) throw new UsageError(describeZodError(parsed.error));
      await setBanner(db, io.by, parsed.data);
      io.out('banner set: every customer sees it now');
    },
  },
};
