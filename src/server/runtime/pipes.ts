/**
 * Node ignores SIGPIPE and raises EPIPE on the stream instead, which crashed the server
 * with a stack trace when its output was closed early (`nodekeep serve | head`). It keeps
 * serving with its log lines dropped: its work matters more than its output.
 */
export function keepRunningWithoutOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    });
  }
}
