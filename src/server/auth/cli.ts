import { fail } from '../kernel/errors';
import type { CliCommand } from '../db/cli-command';
import type { CliIo } from '../kernel/cli';
import type { DB } from '../db/open';
import type { UserRole } from '../db/schema';
import { terminalField as f } from '../kernel/terminal';
import { parseFlags, UsageError } from '../kernel/cli';
import { logOperatorAction } from '../operator/log';
import { deleteSetupTokens, findUserByLogin, listUserSessions, listUsers, updateUser } from './queries';
import { disableUser, enableUser, resendVerificationFor, resetUserTfa } from './operator-actions';

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

export const userCommands: Record<string, CliCommand> = {
  'users list': {
    usage: 'users list',
    summary: 'list every account',
    async run(db, _args, io) {
      const users = await listUsers(db);
      if (!users.length) return io.out('no users yet');
      io.out(['id', 'username', 'email', 'verified', '2fa', 'state', 'created'].join('\t'));
      for (const u of users) {
        io.out(
          [
            u.id,
            f(u.username),
            f(u.email),
            u.verified_at ? 'yes' : 'no',
            u.tfa_enabled ? 'on' : 'off',
            u.disabled_at ? 'disabled' : 'active',
            iso(u.created_at),
          ].join('\t'),
        );
      }
    },
  },
  'users show': {
    usage: 'users show <username|email>',
    summary: 'show one account and its sessions',
    async run(db, args, io) {
      if (args.length !== 1) throw new UsageError('users show takes one username or email');
      const u = await findUserByLogin(db, args[0]);
      if (!u) fail('NOT_FOUND', `no user "${f(args[0])}"`);
      io.out(`id:        ${u.id}`);
      io.out(`username:  ${f(u.username)}`);
      io.out(`email:     ${f(u.email)} (${u.verified_at ? `verified ${iso(u.verified_at)}` : 'not verified'})`);
      io.out(`2fa:       ${u.tfa_enabled ? 'on' : 'off'}`);
      io.out(`role:      ${u.role}`);
      io.out(`state:     ${u.disabled_at ? `disabled ${iso(u.disabled_at)}` : 'active'}`);
      io.out(`referrer:  ${u.referrer === null ? '-' : f(u.referrer)}`);
      io.out(`created:   ${iso(u.created_at)}`);
      const sessions = await listUserSessions(db, u.id);
      io.out(
        `sessions:  ${sessions.filter((s) => !s.revoked_at && s.expires_at > Date.now()).length} live of ${sessions.length}`,
      );
      for (const s of sessions.slice(-10)) {
        io.out(
          `  #${s.id} ${s.revoked_at ? 'revoked' : s.expires_at > Date.now() ? 'live' : 'expired'} created ${iso(s.created_at)} last used ${iso(s.last_used_at)} ip ${f(s.ip)} ua ${f(JSON.stringify(s.user_agent.slice(0, 60)))}`,
        );
      }
    },
  },
  'users disable': {
    usage: 'users disable <username|email>',
    summary: 'disable an account and sign out all its sessions',
    async run(db, args, io) {
      const u = await oneUser(db, args, 'users disable');
      io.out(
        (await disableUser(db, io.by, u.id))
          ? `${f(u.username)} is disabled and signed out`
          : `${f(u.username)} is already disabled`,
      );
    },
  },
  'users enable': {
    usage: 'users enable <username|email>',
    summary: 'let a disabled account log in again',
    async run(db, args, io) {
      const u = await oneUser(db, args, 'users enable');
      io.out((await enableUser(db, io.by, u.id)) ? `${f(u.username)} is enabled` : `${f(u.username)} is not disabled`);
    },
  },
  'users reset-2fa': {
    usage: 'users reset-2fa <username|email> --check <how you checked who is asking>',
    summary: 'turn two-factor authentication off for a user who lost it (the check is kept in the log)',
    async run(db, args, io) {
      const { positional, flags } = parseFlags(args, ['check']);
      const u = await oneUser(db, positional, 'users reset-2fa');
      if (!flags.check?.trim()) throw new UsageError('--check is required: say how you checked who is asking');
      await resetUserTfa(db, io.by, u.id, flags.check);
      io.out(`${f(u.username)}: two-factor authentication is off; they were told by mail and in-app`);
    },
  },
  'users resend-verification': {
    usage: 'users resend-verification <username|email>',
    summary: 'send a fresh email verification link',
    async run(db, args, io, config) {
      const u = await oneUser(db, args, 'users resend-verification');
      const { email } = await resendVerificationFor(db, io.by, config.publicUrl, u.id);
      io.out(`verification link queued to ${f(email)}`);
    },
  },
  'users promote': {
    usage: 'users promote <username|email>',
    summary: 'make an account an operator (the console opens once its 2FA is on)',
    run: (db, args, io) => setRole(db, args, io, 'operator'),
  },
  'users demote': {
    usage: 'users demote <username|email>',
    summary: 'make an operator an ordinary customer again',
    run: (db, args, io) => setRole(db, args, io, 'customer'),
  },
};

/** The role is set here only: nothing in the web app can make an operator. */
async function setRole(db: DB, args: string[], io: CliIo, role: UserRole) {
  const verb = role === 'operator' ? 'promote' : 'demote';
  if (args.length !== 1) throw new UsageError(`users ${verb} takes one username or email`);
  const u = await findUserByLogin(db, args[0]);
  if (!u) fail('NOT_FOUND', `no user "${f(args[0])}"`);
  if (u.role === role)
    return io.out(`${f(u.username)} is already ${role === 'operator' ? 'an operator' : 'a customer'}`);
  await db.transaction().execute(async (trx) => {
    await updateUser(trx, u.id, { role });
    // An operator exists now: the first-run link has done its work (first-run.ts).
    if (role === 'operator') await deleteSetupTokens(trx);
    await logOperatorAction(trx, io.by, `users ${verb}`, { user_id: u.id, username: u.username });
  });
  if (role === 'customer')
    return io.out(`${f(u.username)} is a customer now; the console refuses them from their next call`);
  io.out(
    `${f(u.username)} is an operator now${u.tfa_enabled ? '' : '; the console opens once they turn on two-factor authentication (Settings, Two-factor authentication)'}`,
  );
}

async function oneUser(db: DB, args: string[], command: string) {
  if (args.length !== 1) throw new UsageError(`${command} takes one username or email`);
  const u = await findUserByLogin(db, args[0]);
  if (!u) fail('NOT_FOUND', `no user "${f(args[0])}"`);
  return u;
}
