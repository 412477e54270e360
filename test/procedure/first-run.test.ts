import { TRPCError } from '@trpc/server';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { openSetupLink, SETUP_TTL_MS } from '../../src/server/auth/first-run';
import { totpCode } from '../../src/server/auth/totp';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser, newUserInput } from '../support/users';

// The first-run link (src/server/auth/README.md): a one-time token that makes the first
// operator account with 2FA on, and nothing once an operator exists.

let d: Deps | undefined;
afterEach(() => d?.close());

async function start() {
  d = await makeDeps();
  const url = await openSetupLink(d.db, d.deps.config.publicUrl, d.log);
  expect(url).toMatch(/^http:\/\/nodekeep\.test\/setup\/[\w-]{40,}$/);
  return { d, token: url!.split('/setup/')[1] };
}

async function secretOf(token: string) {
  const s = await d!.caller().setup.status({ token });
  if (s.state !== 'open') throw new Error(`link is ${s.state}`);
  return s.secret;
}

const operators = () =>
  d!.db.selectFrom('users').select(['id', 'tfa_enabled']).where('role', '=', 'operator').execute();
const userCount = async () => (await d!.db.selectFrom('users').select('id').execute()).length;

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  return { code: (err as TRPCError).code, message: (err as TRPCError).message };
}

describe('first-run link', () => {
  it('creates the operator with 2FA on, signed in; the link then says setup is done and is gone', async () => {
    const { token } = await start();
    const secret = await secretOf(token);
    const input = newUserInput('first');
    const res = await d!.caller().setup.create_operator({ token, ...input, code: totpCode(secret) });
    expect(res.message).toBe('Your operator account is ready, with two-factor authentication on.');
    const ops = await operators();
    expect(ops).toHaveLength(1);
    expect(ops[0].tfa_enabled).toBe(1);
    // The session works and is the new account's.
    expect((await d!.caller(res.auth_token).auth.get_common_info()).info.username).toBe(input.username);
    // The code used to enrol cannot log in again.
    expect(
      (
        await refusal(
          d!.caller().auth.login({ username: input.username, password: input.password, tfa: totpCode(secret) }),
        )
      ).message,
    ).toMatch(/already used/);

    expect(await d!.db.selectFrom('setup_tokens').selectAll().execute()).toEqual([]);
    const status = await d!.caller().setup.status({ token });
    expect(status).toEqual({
      state: 'done',
      message: 'Setup is done: the operator account exists. Log in to open the console.',
    });
    // Reused: refused, nothing more made.
    const again = await refusal(
      d!.caller().setup.create_operator({ token, ...newUserInput('again'), code: totpCode(secret) }),
    );
    expect(again).toEqual({
      code: 'CONFLICT',
      message: 'Setup is done: the operator account exists. Log in to open the console.',
    });
    expect(await userCount()).toBe(1);
    // A restart makes no new link once an operator exists.
    expect(await openSetupLink(d!.db, d!.deps.config.publicUrl, d!.log)).toBeNull();
  });

  it('a wrong token or a wrong code is refused and changes nothing', async () => {
    const { token } = await start();
    const secret = await secretOf(token);
    expect(await d!.caller().setup.status({ token: 'x'.repeat(43) })).toEqual({
      state: 'invalid',
      message: "This setup link is not valid. Use the newest link printed in the server's log.",
    });
    const wrongToken = await refusal(
      d!.caller().setup.create_operator({ token: 'x'.repeat(43), ...newUserInput('wt'), code: totpCode(secret) }),
    );
    expect(wrongToken.message).toBe("This setup link is not valid. Use the newest link printed in the server's log.");
    const good = totpCode(secret);
    const wrongCode = await refusal(
      d!
        .caller()
        .setup.create_operator({ token, ...newUserInput('wc'), code: good === '000000' ? '111111' : '000000' }),
    );
    expect(wrongCode).toEqual({
      code: 'BAD_REQUEST',
      message: 'Invalid 2FA code. Enter the code your authenticator app shows for this key now.',
    });
    const badEmail = await refusal(
      d!.caller().setup.create_operator({ token, ...newUserInput('be'), email: 'not-an-email', code: good }),
    );
    expect(badEmail.code).toBe('BAD_REQUEST');
    expect(await userCount()).toBe(0);
    expect((await d!.caller().setup.status({ token })).state).toBe('open');
  });

  it('an expired link is refused and a new one is printed', async () => {
    const { token } = await start();
    const secret = await secretOf(token);
    await d!.db
      .updateTable('setup_tokens')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const before = d!.log.lines.filter((l) => l.includes('setup_url')).length;
    const expired = await refusal(
      d!.caller().setup.create_operator({ token, ...newUserInput('exp'), code: totpCode(secret) }),
    );
    expect(expired.message).toMatch(/^This setup link has expired\. A new one is printed in the server's log/);
    const status = await d!.caller().setup.status({ token });
    expect(status.state).toBe('expired');
    const printed = d!.log.lines.filter((l) => l.includes('setup_url'));
    expect(printed).toHaveLength(before + 1);
    const fresh = /\/setup\/([\w-]+)/.exec(JSON.parse(printed.at(-1)!).setup_url)![1];
    expect(fresh).not.toBe(token);
    const row = await d!.db.selectFrom('setup_tokens').selectAll().executeTakeFirstOrThrow();
    expect(row.expires_at - row.created_at).toBe(SETUP_TTL_MS);
    // Stored hashed: the token itself is nowhere in the table.
    expect(JSON.stringify(await d!.db.selectFrom('setup_tokens').selectAll().execute())).not.toContain(fresh);
    // Looking again while the new one lives makes no third.
    await d!.caller().setup.status({ token });
    expect(d!.log.lines.filter((l) => l.includes('setup_url'))).toHaveLength(before + 1);
    expect((await d!.caller().setup.status({ token: fresh })).state).toBe('open');
    expect(await userCount()).toBe(0);
  });

  it('100 parallel uses of one link from 100 addresses make exactly one operator', async () => {
    const { token } = await start();
    const secret = await secretOf(token);
    const input = { token, ...newUserInput('race'), code: totpCode(secret) };
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        d!.caller(null, `127.0.${i >> 8}.${(i & 255) + 1}`).setup.create_operator(input),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as TRPCError).code).toBe('CONFLICT');
    expect(await operators()).toHaveLength(1);
    expect(await userCount()).toBe(1);
  });

  it('the CLI way still works and ends the link', async () => {
    const { token } = await start();
    const u = await freshUser(d!.deps, { prefix: 'cliop' });
    const out: string[] = [];
    const code = await runCli(
      ['users', 'promote', u.username],
      { DATA_DIR: d!.deps.config.dataDir },
      {
        out: (l) => out.push(l),
      },
    );
    expect(code).toBe(0);
    expect(await d!.db.selectFrom('setup_tokens').selectAll().execute()).toEqual([]);
    expect((await d!.caller().setup.status({ token })).state).toBe('done');
  });
});
