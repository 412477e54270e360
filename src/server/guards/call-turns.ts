/**
 * One payer's calls (an account's, or an address's: guards/call-budget.ts) take turns.
 * tRPC starts a batch's calls all at once; SQLite answers synchronously and the
 * connection passes from query to query in microtasks, so 30 batches of 20 calls ran
 * as one chain that never gave the event loop back, and /healthz waited seconds. Here a
 * call starts at once only when none of its payer's is running; otherwise it waits, and
 * the next waiting call starts in a later turn of the event loop (setImmediate, after
 * the loop has read other clients' sockets), with at most MAX_RUNNING running together
 * (calls that wait on a daemon or a provider still overlap). So each payer advances by
 * about one call per turn of the loop however many batches it sends, and another
 * client's call waits for at most one call of each busy payer, not for all of theirs.
 */
export const MAX_RUNNING = 8;

export type CallTurns = {
  /** Waits for this call's turn; call the returned function when the call is done. */
  take(): Promise<() => void>;
};

/** `onIdle`: nothing running or waiting any more (the owner may forget this queue). */
export function callTurns(maxRunning = MAX_RUNNING, onIdle?: () => void): CallTurns {
  let running = 0;
  let scheduled = false;
  const waiting: Array<() => void> = [];

  const done = () => {
    running -= 1;
    pump();
    if (!running && !waiting.length && !scheduled) onIdle?.();
  };
  function pump() {
    if (scheduled || !waiting.length || running >= maxRunning) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (waiting.length && running < maxRunning) {
        running += 1;
        waiting.shift()!();
      }
      pump();
    });
  }

  return {
    take() {
      if (!running && !waiting.length && !scheduled) {
        running += 1;
        return Promise.resolve(once(done));
      }
      return new Promise((resolve) => {
        waiting.push(() => resolve(once(done)));
        pump();
      });
    },
  };
}

function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}
