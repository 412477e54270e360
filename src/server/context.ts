import type { Config } from './config';
import type { DB } from './db/open';
import type { EventHub } from './events/hub';
import type { RateLimiter } from './http/rate-limit';
import type { Logger } from './log';
import type { MailDispatcher } from './mail/dispatcher';

/** What the process holds once, shared by every request and connection. */
export type AppDeps = {
  db: DB;
  config: Config;
  log: Logger;
  limiter: RateLimiter;
  hub: EventHub;
  mail: Pick<MailDispatcher, 'kick'>;
};

/** Who is calling, from HTTP or a websocket connection alike. */
export type RequestMeta = { ip: string; userAgent: string; requestId: string };

export type Context = AppDeps & { req: RequestMeta; token: string | null };

export function bearerToken(header: string | null | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : null;
}
