import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * JSON-lines logger. Secrets never reach it by design (we never pass bodies), and
 * as a second line of defence any field whose name looks secret is masked.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_KEY = /pass|token|secret|tfa|code|hash|authorization|cookie|auth_key/i;

export type Fields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
  child(fields: Fields): Logger;
}

export type LogSink = (line: string) => void;

function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, val] of Object.entries(fields)) {
    if (val instanceof Error) out[k] = { name: val.name, message: val.message, stack: val.stack };
    else if (SECRET_KEY.test(k) && k !== 'request_id') out[k] = '[redacted]';
    else out[k] = val;
  }
  return out;
}

/**
 * Fields every log line written inside a scope carries, whoever writes it and however
 * deep in the call: the request id of the HTTP request, tRPC procedure or job being
 * handled. Async work started inside the scope inherits it (AsyncLocalStorage).
 */
const scope = new AsyncLocalStorage<Fields>();

/** Runs `fn` with `fields` added to every log line it writes (on top of an outer scope's). */
export function withLogFields<T>(fields: Fields, fn: () => T): T {
  return scope.run({ ...scope.getStore(), ...fields }, fn);
}

/**
 * Runs `fn` outside any request's scope: shared background work (the job runner's look,
 * a recurring job) that a request only happened to wake must not carry that request's id.
 */
export function outsideLogScope<T>(fn: () => T): T {
  return scope.exit(fn);
}

/** The request id of the scope we run in (an HTTP request, a procedure, a job a request queued), if any. */
export function currentRequestId(): string | undefined {
  const id = scope.getStore()?.request_id;
  return typeof id === 'string' ? id : undefined;
}

export function createLogger(
  level: Level = 'info',
  sink: LogSink = (l) => process.stdout.write(l + '\n'),
  base: Fields = {},
): Logger {
  const write = (lvl: Level, msg: string, fields?: Fields) => {
    if (order[lvl] < order[level]) return;
    sink(
      JSON.stringify({
        time: new Date().toISOString(),
        level: lvl,
        msg,
        ...redact({ ...scope.getStore(), ...base, ...fields }),
      }),
    );
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(level, sink, { ...base, ...fields }),
  };
}

/** For tests: a logger that keeps its lines. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(
    createLogger('debug', (l) => lines.push(l)),
    { lines },
  );
}
