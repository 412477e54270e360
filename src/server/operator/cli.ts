import type { CliCommand } from '../cli/types';
import { UsageError } from '../cli/types';
import { insertEvent } from '../events/queries';
import { isMaintenance, logOperatorAction, setSetting } from './settings';

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
      await db.transaction().execute(async (trx) => {
        await setSetting(trx, 'maintenance', state);
        await logOperatorAction(trx, 'maintenance', { state });
        // Logged-in tabs switch to (or leave) the maintenance app at once; visitors' tabs,
        // which have no live channel, see it at their next system.status poll.
        await insertEvent(trx, null, 'maintenance', { on: state === 'on' });
      });
      io.out(`maintenance is now ${state}`);
    },
  },
};
