import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { hotRead } from '../db/hot-read';

// Operator switches that the server and the CLI share through the database.
/** Read on every request (maintenance, the banner): compiled once (db/hot-read.ts). */
const settingRow = hotRead((db: Kysely<Database>, key: string) =>
  db.selectFrom('settings').select('value').where('key', '=', key),
);

export async function getSetting(db: Kysely<Database>, key: string): Promise<string | null> {
  return (await settingRow(db, key))?.value ?? null;
}

export async function setSetting(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value, updated_at: Date.now() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: Date.now() }))
    .execute();
}

export async function isMaintenance(db: Kysely<Database>): Promise<boolean> {
  return (await getSetting(db, 'maintenance')) === 'on';
}

/** A value made once and then shared by every process on the data folder (first writer wins). */
export async function ensureSetting(db: Kysely<Database>, key: string, make: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: make(), updated_at: Date.now() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getSetting(db, key))!;
}

/**
 * What the running server was started with, for the command line: a command runs with
 * its own environment, which may differ (FLEET_SIMULATOR unset in an operator's shell),
 * and must report and act on the server's. Written by each server start.
 */
export type ServerFleetSettings = {
  fleet_simulator: boolean;
  daemon_profiles_file: string | null;
  daemon_facts_dir: string | null;
  started_at: number;
};
const SERVER_SETTINGS = 'server.fleet';

export async function recordServerSettings(db: Kysely<Database>, s: ServerFleetSettings): Promise<void> {
  await setSetting(db, SERVER_SETTINGS, JSON.stringify(s));
}

/** The server's settings as of its last start, or null before its first start. */
export async function serverSettings(db: Kysely<Database>): Promise<ServerFleetSettings | null> {
  const raw = await getSetting(db, SERVER_SETTINGS);
  return raw ? (JSON.parse(raw) as ServerFleetSettings) : null;
}
