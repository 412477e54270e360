import crypto from 'node:crypto';
import { findUserByLogin } from '../../src/server/auth/queries';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { totpCode } from '../../src/server/auth/totp';
import type { AppDeps, Context } from '../../src/server/rpc/context';
import type { DB } from '../../src/server/db/open';
import { createCaller } from '../../src/server/router';

// Outline's habit: each test makes its own user, so tests never share one or clean up
// after each other. Users are made through the real procedures (createCaller), with the
// same database and services as the server or the deps they are given.

let calls = 0;
/**
 * A procedure caller over `deps`. Each call comes from its own address unless `ip` is
 * given, so per-address limits bite only where a test means them to.
 */
export function callerFor(deps: AppDeps) {
  return (token: string | null = null, ip?: string) => {
    calls += 1;
    const ctx: Context = {
      ...deps,
      req: { ip: ip ?? `10.200.${(calls >> 8) & 255}.${calls & 255}`, userAgent: 'vitest', requestId: `t${calls}` },
      token,
    };
    return createCaller(ctx);
  };
}

/** Registration input no other test (or run) uses: `<prefix><time><random>`. */
export function newUserInput(prefix = 'u') {
  const id = `${prefix.slice(0, 12)}${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  return { username: id, email: `${id}@example.test`, password: 'correct horse 1' };
}

/** The newest mail in the outbox to `to`, and what follows `pathPrefix` in its first such link. */
export async function outboxLink(db: DB, to: string, pathPrefix: string): Promise<string> {
  const mail = await db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_addr', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const m = new RegExp(`https?://\\S+${pathPrefix.replace('?', '\\?')}(\\S+)`).exec(mail.text);
  if (!m) throw new Error(`no ${pathPrefix} link in ${mail.text}`);
  return m[1];
}

export type FreshUser = {
  id: number;
  username: string;
  email: string;
  password: string;
  verified: boolean;
  /** A session token, unless `login: false`. */
  token: string;
  /** The authenticator secret when 2FA is on (its enabling code's step is used up). */
  tfaSecret: string | null;
};

export type FreshUserOptions = {
  /** Start of the username (at most 12 characters are kept). */
  prefix?: string;
  /** Follow the emailed verification link (default true). */
  verified?: boolean;
  /** Log in and return a token (default true; implied by `tfa`). */
  login?: boolean;
  /** Turn on 2FA with a code from the secret (default false). */
  tfa?: boolean;
};

/**
 * A new user: registered, verified through the link the platform mailed, and (unless
 * told otherwise) logged in, optionally with 2FA on. `deps` is a running server's
 * (`server.deps`) or `makeDeps()`'s.
 */
export async function freshUser(deps: AppDeps, opts: FreshUserOptions = {}): Promise<FreshUser> {
  const call = callerFor(deps);
  const input = newUserInput(opts.prefix);
  await call().auth.register(input);
  const verified = opts.verified ?? true;
  if (verified) await call().auth.verify({ hash: await outboxLink(deps.db, input.email, '/verify?h=') });
  let token = '';
  let tfaSecret: string | null = null;
  if (opts.login !== false || opts.tfa) {
    const res = await call().auth.login({ username: input.username, password: input.password });
    if (!res.auth_token) throw new Error(`login of fresh user ${input.username} gave no token: ${res.message}`);
    token = res.auth_token;
  }
  if (opts.tfa) {
    const { secret } = await call(token).auth.get_tfa();
    await call(token).auth.update_tfa({ enable: true, code: totpCode(secret) });
    tfaSecret = secret;
  }
  const row = await findUserByLogin(deps.db, input.username);
  if (!row) throw new Error(`fresh user ${input.username} is not in the database`);
  return { id: row.id, ...input, verified, token, tfaSecret };
}

/** What `fundedUser` credits: enough for any deploy's first day in the tests (micro-dollars). */
export const TEST_FUNDS = 1_000_000_000;

/**
 * A fresh user with money on the balance, for tests that deploy: a deploy pays its nodes'
 * Initial Charge and is refused without it (billing/initial-charge.ts). Posted as a crypto
 * deposit, so the user is a paying customer: accounts that never paid are held to
 * FREE_NODE_LIMIT and FREE_CAPACITY_SHARE (deploy/free-limits.ts).
 */
export async function fundedUser(deps: AppDeps, opts: FreshUserOptions = {}): Promise<FreshUser> {
  const u = await freshUser(deps, opts);
  await deps.db.transaction().execute((trx) =>
    postTransfer(trx, {
      idempotencyKey: `test-funds:${u.id}`,
      debit: PLATFORM.crypto,
      credit: userAccount(u.id),
      amount: TEST_FUNDS,
      kind: 'crypto_deposit',
      description: 'Test funds',
      quiet: true,
    }),
  );
  return u;
}
