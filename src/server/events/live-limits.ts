import { fail } from '../kernel/errors';

/** Live subscriptions one connection may hold (the browser holds one per tab). */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 5;
/** Live subscriptions one account may hold over all its connections (so, sockets in use). */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

const perConnection = new WeakMap<object, number>();
/** Per server (its event hub): two servers in one process (tests) count their accounts apart. */
const perUserOf = new WeakMap<object, Map<number, number>>();

/**
 * Takes a subscription slot for this connection and user, or refuses with a clear
 * error; the returned function gives it back. A connection is known by its context's
 * request object, which the websocket adapter makes once per socket (an SSE stream
 * gets one per request); a server by its event hub, since user ids are its database's.
 */
export function takeSubscriptionSlot(server: object, connection: object, userId: number): () => void {
  let perUser = perUserOf.get(server);
  if (!perUser) perUserOf.set(server, (perUser = new Map()));
  const c = perConnection.get(connection) ?? 0;
  const u = perUser.get(userId) ?? 0;
  if (c >= MAX_SUBSCRIPTIONS_PER_CONNECTION)
    fail('TOO_MANY_REQUESTS', `At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} live subscriptions per connection.`);
  if (u >= MAX_SUBSCRIPTIONS_PER_USER)
    fail(
      'TOO_MANY_REQUESTS',
      `At most ${MAX_SUBSCRIPTIONS_PER_USER} live subscriptions per account. Close some tabs and try again.`,
    );
  perConnection.set(connection, c + 1);
  perUser.set(userId, u + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    perConnection.set(connection, (perConnection.get(connection) ?? 1) - 1);
    const left = (perUser.get(userId) ?? 1) - 1;
    if (left > 0) perUser.set(userId, left);
    else perUser.delete(userId);
  };
}
