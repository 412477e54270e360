import { operatorCommand } from '../runtime/executable';
import { coinNode } from '../../shared/english';
import type { DB } from '../db/open';
import type { CoinRecord } from '../db/schema';
import type { FleetAccess } from '../fleet/access';
import { simulatorProfileId } from '../fleet/profiles';
import { coinsPorts, type CoinReadiness } from './ports';
import { coinDetails } from './queries';

/**
 * Is a coin offered to customers now? In the demo (FLEET_SIMULATOR on) every coin is. In
 * production a coin is offered only when its daemon profile is real, verified from its
 * source (catalog/daemon-facts), and `coins check` passed on a host that can take it now;
 * otherwise customers see "Coming soon" (`reason`) and the console what is missing.
 */
export type Offer = { offered: true } | { offered: false; reason: string; missing: string };

export const comingSoon = (label: string) =>
  `${coinNode(label, true)} are coming soon: the servers that run them are being prepared. Please check back later.`;

/** Where the coin's project publishes no node software: nothing is being prepared, and we say so. */
export const noPublicDaemon = (label: string) =>
  `${label} nodes are not offered: the project does not publish the node software they run.`;

type Fleet = Pick<FleetAccess, 'profiles' | 'facts' | 'simulator'>;

export function offerOf(coin: CoinRecord, fleet: Fleet, readiness: Map<string, CoinReadiness>): Offer {
  const profileId = coinDetails(coin).daemon ?? simulatorProfileId(coin.family);
  const profile = fleet.profiles[profileId];
  const no = (missing: string): Offer => ({ offered: false, reason: comingSoon(coin.label), missing });
  if (!profile) return no(`daemon profile ${profileId} is not in the profiles file`);
  if (profile.run === 'simulator')
    return fleet.simulator
      ? { offered: true }
      : no(`runs on the coin-daemon simulator, which is off (FLEET_SIMULATOR): name a real daemon profile ("daemon")`);
  if (fleet.simulator) return { offered: true };
  const facts = fleet.facts[profileId];
  if (facts?.public_daemon === false)
    return {
      offered: false,
      reason: noPublicDaemon(coin.label),
      missing: `profile ${profileId}: ${facts.reason ?? 'the project publishes no daemon'}`,
    };
  if (!facts?.verified)
    return no(`profile ${profileId} is not verified from its source: ${facts?.reason ?? 'no facts file'}`);
  const ready = readiness.get(coin.id);
  if (!ready) return no(`not checked yet: run \`${operatorCommand(`coins check ${coin.id}`)}\``);
  return ready.ready ? { offered: true } : no(ready.reason);
}

/** Every coin's offer, reading readiness once. */
export async function offersOf(db: DB, coins: CoinRecord[], fleet: Fleet): Promise<Map<string, Offer>> {
  const readiness = fleet.simulator
    ? new Map<string, CoinReadiness>()
    : await coinsPorts().readiness(db, fleet.profiles);
  return new Map(coins.map((c) => [c.id, offerOf(c, fleet, readiness)]));
}
