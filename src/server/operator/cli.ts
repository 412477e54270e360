import type { CliCommand } from '../cli/types';
import { UsageError } from '../cli/types';
import { isSignupOpen, setMaintenance, setSignupOpen } from './platform';
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
};
