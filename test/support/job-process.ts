/**
 * A second process on the platform's database, for tests of the job runner:
 *   enqueue-mail <db file> <to>       queues a mail as the CLI would, then exits
 *   claim-and-crash <db file> <job name> <lease ms>   claims every due job of that name, then dies (SIGKILL)
 * Run with `node --import tsx test/support/job-process.ts ...`.
 */
import { openDatabase } from '../../src/server/db/open';
import { claimJob, claimableJobs } from '../../src/server/jobs/queries';
import { enqueueMail } from '../../src/server/mail/outbox';

const [cmd, file, arg, arg2] = process.argv.slice(2);
const db = openDatabase(file);
if (cmd === 'enqueue-mail') {
  await db
    .transaction()
    .execute((trx) => enqueueMail(trx, { to: arg, subject: 'From another process', text: 'hello' }));
  await db.destroy();
  process.stdout.write('queued\n');
} else if (cmd === 'claim-and-crash') {
  const now = Date.now();
  const due = await claimableJobs(db, [arg], now, 100);
  for (const j of due) await claimJob(db, j.id, `pid-${process.pid}`, now, now + Number(arg2));
  process.stdout.write(`claimed ${due.length}\n`);
  process.kill(process.pid, 'SIGKILL');
} else {
  throw new Error(`unknown command ${cmd}`);
}
