import type * as v from 'valibot';
import {
  ADDRESS_INDEX_REPLIES,
  WATCH_WALLET_ALTERNATIVES,
  WATCH_WALLET_OPTIONAL,
  WATCH_WALLET_REPLIES,
} from './daemons/activity';
import { BEACON_REPLIES } from './daemons/beacon';
import { CHAIN_REPLIES, CLASSIC_STATUS_REPLIES, DASH_STATUS_REPLIES } from './daemons/bitcoin';
import { BURN_REPLIES } from './daemons/burn';
import { DASH_REPLIES } from './daemons/dash';
import { daemonCallName, RENAMABLE_CALLS, type RenamableCall } from './daemons/jsonrpc';
import { KEYMANAGER_REPLIES } from './daemons/keymanager';
import { MONERO_REPLIES, nodeWordReplies } from './daemons/monero';
import type { BinaryProfile } from './profiles';

/** Each call with every validator its reply goes through (one call can be read in two places). */
export type Replies = Record<string, v.GenericSchema[]>;

/**
 * The calls the platform makes on a node of a profile, under the daemon's own names.
 * `replies`: every one with its validators. A call is required unless it is `optional`
 * (the reader does without it on -32601: `listwallets` on a single-wallet daemon) or in
 * an `alternatives` group (the reader tries them in order and needs one: `getaddressinfo`,
 * else `validateaddress`).
 */
export type PlatformCalls = { replies: Replies; optional: string[]; alternatives: string[][] };

const isRenamable = (call: string): call is RenamableCall => (RENAMABLE_CALLS as readonly string[]).includes(call);

/**
 * Every daemon call the platform makes on a node of this profile, with the validator its
 * reply must pass: what a coin's source has to back before its profile counts as verified
 * (catalog/daemon-facts), and what `coins check` asks a throwaway container. The profile's
 * `calls` renames the platform's calls to the daemon's own (or drops one it does without).
 *
 * `burn`: the profile serves a burn coin (the deploy checks the burn transaction on it).
 * A call named "protx info" is `protx` with the sub-command `info`; "GET /path" is REST.
 */
export function platformCalls(profile: BinaryProfile, opts: { burn?: boolean } = {}): PlatformCalls {
  const out: PlatformCalls = { replies: {}, optional: [], alternatives: [] };
  const add = (...sets: Array<Record<string, v.GenericSchema>>) => {
    for (const set of sets)
      for (const [call, reply] of Object.entries(set)) {
        const name = isRenamable(call) ? daemonCallName(profile.calls, call) : call;
        if (name !== null) (out.replies[name] ??= []).push(reply);
      }
  };
  if (profile.rpc === 'bitcoin') {
    add(CHAIN_REPLIES);
    if (profile.flavour === 'dash') add(DASH_STATUS_REPLIES, DASH_REPLIES);
    if (profile.flavour === 'classic') add(CLASSIC_STATUS_REPLIES);
    if (profile.activity === 'address_index') add(ADDRESS_INDEX_REPLIES);
    if (profile.activity === 'watch_wallet') {
      add(WATCH_WALLET_REPLIES);
      out.optional.push(...WATCH_WALLET_OPTIONAL);
      out.alternatives.push(...WATCH_WALLET_ALTERNATIVES.map((g) => [...g]));
    }
    if (opts.burn) add(BURN_REPLIES);
  } else if (profile.rpc === 'monero') {
    add(MONERO_REPLIES, profile.node_word ? nodeWordReplies(profile.node_word) : {});
  } else if (profile.rpc === 'evm') {
    add(BEACON_REPLIES, profile.validator_client ? KEYMANAGER_REPLIES : {});
  }
  return out;
}

/**
 * What a daemon lacks of the platform's calls, given which it has: every required call it
 * does not have, and each alternatives group it has none of ("getaddressinfo | validateaddress").
 */
export function missingCalls(calls: PlatformCalls, has: (call: string) => boolean): string[] {
  const grouped = new Set(calls.alternatives.flat());
  const missing = Object.keys(calls.replies).filter((c) => !calls.optional.includes(c) && !grouped.has(c) && !has(c));
  for (const group of calls.alternatives) if (!group.some(has)) missing.push(group.join(' | '));
  return missing;
}
