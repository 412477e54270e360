import type * as v from 'valibot';
import { ADDRESS_INDEX_REPLIES, WATCH_WALLET_REPLIES } from './daemons/activity';
import { BEACON_REPLIES } from './daemons/beacon';
import { CHAIN_REPLIES, CLASSIC_STATUS_REPLIES, DASH_STATUS_REPLIES } from './daemons/bitcoin';
import { BURN_REPLIES } from './daemons/burn';
import { DASH_REPLIES } from './daemons/dash';
import { KEYMANAGER_REPLIES } from './daemons/keymanager';
import { MONERO_REPLIES, nodeWordReplies } from './daemons/monero';
import type { BinaryProfile } from './profiles';

/** Each call with every validator its reply goes through (one call can be read in two places). */
export type Replies = Record<string, v.GenericSchema[]>;

/**
 * Every daemon call the platform makes on a node of this profile, with the validator its
 * reply must pass: what a coin's source has to back before its profile counts as verified
 * (catalog/daemon-facts), and what `coins check` asks a throwaway container.
 *
 * `burn`: the profile serves a burn coin (the deploy checks the burn transaction on it).
 * A call named "protx info" is `protx` with the sub-command `info`; "GET /path" is REST.
 */
export function platformCalls(profile: BinaryProfile, opts: { burn?: boolean } = {}): Replies {
  const calls: Replies = {};
  const add = (...sets: Array<Record<string, v.GenericSchema>>) => {
    for (const set of sets) for (const [call, reply] of Object.entries(set)) (calls[call] ??= []).push(reply);
  };
  if (profile.rpc === 'bitcoin') {
    add(CHAIN_REPLIES);
    if (profile.flavour === 'dash') add(DASH_STATUS_REPLIES, DASH_REPLIES);
    if (profile.flavour === 'classic') add(CLASSIC_STATUS_REPLIES);
    if (profile.activity === 'address_index') add(ADDRESS_INDEX_REPLIES);
    if (profile.activity === 'watch_wallet') add(WATCH_WALLET_REPLIES);
    if (opts.burn) add(BURN_REPLIES);
  } else if (profile.rpc === 'monero') {
    add(MONERO_REPLIES, profile.node_word ? nodeWordReplies(profile.node_word) : {});
  } else if (profile.rpc === 'evm') {
    add(BEACON_REPLIES, profile.validator_client ? KEYMANAGER_REPLIES : {});
  }
  return calls;
}
