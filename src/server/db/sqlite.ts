import SQLite from 'better-sqlite3';
import { inExecutable, nativeAddon } from '../runtime/executable';

/**
 * Every SQLite connection of the server and the CLI opens here. Inside the single
 * executable there is no node_modules to find the addon in, so it is handed over
 * already loaded (better-sqlite3's `nativeBinding` takes the addon object too).
 */
export function openSqlite(file: string, options: SQLite.Options = {}): SQLite.Database {
  if (!inExecutable) return new SQLite(file, options);
  return new SQLite(file, { ...options, nativeBinding: nativeAddon<object>('sqlite') as unknown as string });
}
