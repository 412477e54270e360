/**
 * The daily charge in a process of its own, for the crash test (test/billing/charges-crash.test.ts):
 *   node --import tsx test/support/charge-process.ts <db file> <now ms> <chunk>
 * Prints `ready`, then `chunk <day> <cursor>` after each committed chunk, then `done`.
 */
import { openDatabase } from '../../src/server/db/open';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { createLogger } from '../../src/server/kernel/log';

const [file, now, chunk] = process.argv.slice(2);
const db = openDatabase(file);
process.stdout.write('ready\n');
await runDailyCharge(
  {
    db,
    log: createLogger('error'),
    chunk: Number(chunk),
    onChunk: (day, cursor) => process.stdout.write(`chunk ${day} ${cursor}\n`),
  },
  Number(now),
);
await db.destroy();
process.stdout.write('done\n');
