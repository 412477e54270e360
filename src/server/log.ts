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

export function createLogger(level: Level = 'info', sink: LogSink = (l) => process.stdout.write(l + '\n'), base: Fields = {}): Logger {
  const write = (lvl: Level, msg: string, fields?: Fields) => {
    if (order[lvl] < order[level]) return;
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...redact({ ...base, ...fields }) }));
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
  return Object.assign(createLogger('debug', (l) => lines.push(l)), { lines });
}
