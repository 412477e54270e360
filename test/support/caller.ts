import fs from 'node:fs';
import { loadConfig } from '../../src/server/config';
import type { AppDeps, Context } from '../../src/server/context';
import { migrateToLatest, openDatabase } from '../../src/server/db/open';
import { EventHub } from '../../src/server/events/hub';
import { RateLimiter } from '../../src/server/http/rate-limit';
import { memoryLogger } from '../../src/server/log';
import { createCaller } from '../../src/server/router';
import { tempDataDir } from './server';

/**
 * The platform's dependencies over a real SQLite file, without HTTP: for calling
 * procedures through `createCaller`. Mail stays in the outbox table (nothing sends it),
 * so tests read links from there.
 */
export async function makeDeps() {
  const dataDir = tempDataDir();
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://nodekeep.test' });
  const db = openDatabase(config.dbFile);
  await migrateToLatest(db);
  const log = memoryLogger();
  const hub = new EventHub(db, log);
  await hub.start();
  const deps: AppDeps = { db, config, log, limiter: new RateLimiter(), hub, mail: { kick: async () => {} } };
  let n = 0;
  // Each call comes from its own address unless a test names one, so per-IP limits
  // only bite where a test means them to.
  const ctx = (token: string | null, ip?: string): Context => {
    n += 1;
    return { ...deps, req: { ip: ip ?? `10.200.${(n >> 8) & 255}.${n & 255}`, userAgent: 'vitest', requestId: `t${n}` }, token };
  };
  return {
    deps,
    db,
    log,
    caller: (token: string | null = null, ip?: string) => createCaller(ctx(token, ip)),
    async close() {
      hub.stop();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Deps = Awaited<ReturnType<typeof makeDeps>>;

let seq = 0;
/** A fresh, unique user per test. */
export function newUserInput(prefix = 'u') {
  const id = `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;
  return { username: id, email: `${id}@example.test`, password: 'correct horse 1' };
}

/** The newest mail in the outbox to `to`, and the first link in it with `pathPrefix`. */
export async function outboxLink(d: Deps, to: string, pathPrefix: string): Promise<string> {
  const mail = await d.db.selectFrom('mail_outbox').selectAll().where('to_addr', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const m = new RegExp(`https?://\\S+${pathPrefix.replace('?', '\\?')}(\\S+)`).exec(mail.text);
  if (!m) throw new Error(`no ${pathPrefix} link in ${mail.text}`);
  return m[1];
}

export async function registerAndLogin(d: Deps, input = newUserInput()) {
  await d.caller().auth.register(input);
  const res = await d.caller().auth.login({ username: input.username, password: input.password });
  return { ...input, token: res.auth_token! };
}
