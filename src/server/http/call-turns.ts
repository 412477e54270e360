/**
 * The calls of one HTTP request (a tRPC batch) take turns. tRPC starts a batch's calls
 * all at once; SQLite answers synchronously and the connection passes from query to
 * query in microtasks, so 30 batches of 20 calls ran as one chain that never gave the
 * event loop back, and /healthz waited seconds. Here a request's first call starts at
 * once and each further call starts in a later turn of the event loop (setImmediate,
 * after the loop has read other clients' sockets), with at most MAX_RUNNING of one
 * request running together (calls that wait on a daemon or a provider still overlap).
 * A request's answer is also bounded (MAX_BATCH_RESPONSE_BYTES), and each call's work
 * happens in its own turn, so no client's batch holds the loop for all its calls at once.
 */
export const MAX_RUNNING = 4;

export type CallTurns = {
  /** Waits for this call's turn; call the returned function when the call is done. */
  take(): Promise<() => void>;
};

export function callTurns(maxRunning = MAX_RUNNING): CallTurns {
  let running = 0;
  let started = 0;
  let scheduled = false;
  const waiting: Array<() => void> = [];

  const done = () => {
    running -= 1;
    pump();
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
      started += 1;
      if (started === 1) {
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
