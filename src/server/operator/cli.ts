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
        // Open browsers reload and land in (or leave) the maintenance app.
        await insertEvent(trx, null, 'restarted', {});
      });
      io.out(`maintenance is now ${state}`);
    },
  },
};
