import type { Kysely } from 'kysely';
import { banner as bannerSchema, type Banner, type PlatformSettings } from '../../shared/schemas/console';
import type { DB } from '../db/open';
import type { Database } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { logOperatorAction, type OperatorActor } from './log';
import { getSetting, isMaintenance, setSetting } from './settings';

// The platform-wide switches, one service for the CLI and the console alike: each
// change is written, logged and announced to open tabs in one transaction.

const BANNER = 'banner';
const SIGNUP = 'signup';

/** What a visitor reads when sign-up is closed. */
export const SIGNUP_CLOSED = 'Sign-up is closed at the moment. Please check back later.';

export async function platformSettings(db: Kysely<Database>): Promise<PlatformSettings> {
  const [maintenance, banner, signup_open] = await Promise.all([isMaintenance(db), getBanner(db), isSignupOpen(db)]);
  return { maintenance, banner, signup_open };
}

/** False when it was already so (nothing written, nothing logged). */
export async function setMaintenance(db: DB, by: OperatorActor, on: boolean): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if ((await isMaintenance(trx)) === on) return false;
    await setSetting(trx, 'maintenance', on ? 'on' : 'off');
    await logOperatorAction(trx, by, 'maintenance', { state: on ? 'on' : 'off' });
    // Logged-in tabs switch to (or leave) the maintenance app at once; visitors' tabs,
    // which have no live channel, see it at their next system.status poll.
    await insertEvent(trx, null, 'maintenance', { on });
    return true;
  });
}

/** The operator's banner, or null. A stored value that no longer parses counts as none. */
export async function getBanner(db: Kysely<Database>): Promise<Banner | null> {
  const raw = await getSetting(db, BANNER);
  if (!raw) return null;
  try {
    const parsed = bannerSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Shows (or, with null, removes) the banner on every customer's open dashboard at once. */
export async function setBanner(db: DB, by: OperatorActor, banner: Banner | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await setSetting(trx, BANNER, banner ? JSON.stringify(banner) : '');
    await logOperatorAction(trx, by, banner ? 'banner set' : 'banner clear', banner ?? {});
    await insertEvent(trx, null, 'refresh_profile', {});
  });
}

export async function isSignupOpen(db: Kysely<Database>): Promise<boolean> {
  return (await getSetting(db, SIGNUP)) !== 'closed';
}

/** False when it was already so. */
export async function setSignupOpen(db: DB, by: OperatorActor, open: boolean): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if ((await isSignupOpen(trx)) === open) return false;
    await setSetting(trx, SIGNUP, open ? 'open' : 'closed');
    await logOperatorAction(trx, by, open ? 'signup open' : 'signup close', {});
    return true;
  });
}
