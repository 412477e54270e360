import type { z } from 'zod';
import { payloadSchema, UPLOAD_FIELDS, type PayloadField } from './schemas/deploy-payload';

/**
 * The one registry of coin families (deployment-and-nodes.md sections 2, 4, 5): which
 * wizard a coin gets, its steps and where Advanced starts, what the customer types and
 * the message when it is missing, the fields its deploy sends and their zod schema,
 * which configuration view its node page shows and how a node is started, whether its
 * nodes go into the portfolio's export text and show a network status, which RPC its
 * simulated daemon speaks. What differs between coins of one family is `coinWords`
 * (end of file). The client, the server and the fleet all read it; nothing else decides
 * by family or coin id.
 */
export const FAMILIES = [
  'dip003',
  'dip003_restrict',
  'smartnode',
  'classic',
  'zen',
  'nrg',
  'monero',
  'playa3ull',
  'satori',
  'sin',
  'evm',
  'defi',
] as const;
export type Family = (typeof FAMILIES)[number];

export type WizardKind =
  'burn' | 'dip003' | 'zen' | 'monero' | 'license' | 'neuron' | 'validator' | 'energi' | 'classic';

/** The node page's Configuration tab, one view per node kind (section 2, "Node page"). */
export type ConfigView =
  'dip003_restrict' | 'dip003' | 'quick_setup' | 'zen' | 'nrg' | '3ull' | 'monero' | 'validator' | 'defi' | 'classic';

/** What the fleet's daemon for the family speaks, when the coin names no daemon profile. */
export type SimulatedRpc = 'dash' | 'classic' | 'monero' | 'evm';

/** The messages of section 5 for an empty entry field. */
export const ENTRY_REQUIRED = {
  address: 'Address required.',
  license: 'License key required.',
  txid: 'Transaction ID required.',
} as const;

/** The layout of a node's `output_text` (server/nodes/output-text.ts has the table). */
export type OutputLayout = 'masternode_conf' | 'dip003' | 'entry' | 'energi' | 'validator' | 'defi';

/** The node page's call that starts a node (section 2, configuration views), if any. */
export type StartCall = 'register_submit' | 'quick_setup' | null;

type Profile = {
  wizard: WizardKind;
  /** Guide steps, numbered from 1; the last one sends the deploy. */
  steps: number;
  /** The step an Advanced/Migration deploy starts at. */
  advancedStep: number;
  /** What the `txid` field holds for this family, which names its label and its "required" message. */
  entry: keyof typeof ENTRY_REQUIRED | 'reward_address' | 'keystores';
  configView: ConfigView;
  /** In the portfolio's "Export Masternode Configuration File" text (a masternode.conf line). */
  exported: boolean;
  /** Network status shown on the node page and in lists. */
  networkStatus: boolean;
  /** The node's daemon has governance proposals (the Proposals tab reads them). */
  governance: boolean;
  /** The deploy page goes straight to "deployed" (no setup wait): DFI's node is configured from the wallet afterwards. */
  deployedAtOnce: boolean;
  simulatedRpc: SimulatedRpc;
  /** The fields its deploy sends besides currency and package; any other field is refused. */
  fields: readonly PayloadField[];
  /** Of `fields`, the ones its deploy cannot go without (the others may be left out). */
  required?: readonly PayloadField[];
  output: OutputLayout;
  startCall: StartCall;
  /** An entry (ZEN's t_address) is never used for a second node, on any account or coin of the family. */
  uniqueEntry: boolean;
  /** The node page shows the host facts the coin's node tracker asks for (ZEN: IPv4, IPv6, id, FQDN). */
  nodeTracker: boolean;
  /** Consensus validators: a fee recipient the owner changes; deleting one offers its slashing-protection file. */
  validator: boolean;
  /**
   * No start step: the node joins its network by itself once synced (ZEN's tracker, 3ULL's
   * licence, Satori's neuron), so its status goes Syncing → Running with no action from the
   * owner. The simulator serves such a node as registered from the start.
   */
  startsAlone: boolean;
};

export type FamilyProfile = Profile & {
  /** The zod schema of what this family's deploy sends (strict), derived from `fields`. */
  payload: z.ZodObject<z.ZodRawShape, z.core.$strict>;
};

const base = {
  exported: false,
  networkStatus: true,
  governance: false,
  deployedAtOnce: false,
  startCall: null,
  uniqueEntry: false,
  nodeTracker: false,
  validator: false,
  startsAlone: false,
} as const;

const DIP003_FIELDS = ['txid', 'payee', 'blsKey', 'migrate'] as const;
const dip003 = {
  ...base,
  wizard: 'dip003',
  steps: 4,
  advancedStep: 4,
  entry: 'txid',
  fields: DIP003_FIELDS,
  output: 'dip003',
  simulatedRpc: 'dash',
} as const;
const entryOnly = { fields: ['txid'], output: 'entry' } as const;

const PROFILES: Record<Family, Profile> = {
  dip003: { ...dip003, configView: 'dip003', governance: true, startCall: 'register_submit' },
  dip003_restrict: { ...dip003, configView: 'dip003_restrict', governance: true, startCall: 'register_submit' },
  // Raptoreum-style smartnodes: the dip003 wizard (they carry the dip003 flag), then `protx quick_setup`.
  smartnode: { ...dip003, configView: 'quick_setup', startCall: 'quick_setup' },
  classic: {
    ...base,
    wizard: 'classic',
    steps: 2,
    advancedStep: 2,
    entry: 'txid',
    fields: ['txid'],
    output: 'masternode_conf',
    configView: 'classic',
    exported: true,
    simulatedRpc: 'classic',
  },
  zen: {
    ...base,
    ...entryOnly,
    wizard: 'zen',
    steps: 4,
    advancedStep: 4,
    entry: 'address',
    configView: 'zen',
    networkStatus: false,
    uniqueEntry: true,
    nodeTracker: true,
    startsAlone: true,
    simulatedRpc: 'classic',
  },
  nrg: {
    ...base,
    fields: ['txid'],
    output: 'energi',
    wizard: 'energi',
    steps: 2,
    advancedStep: 2,
    entry: 'address',
    configView: 'nrg',
    networkStatus: false,
    simulatedRpc: 'classic',
  },
  // The monero_secret is sent only by a migration (the node's key from the customer's current platform).
  monero: {
    ...base,
    wizard: 'monero',
    steps: 2,
    advancedStep: 2,
    entry: 'address',
    fields: ['txid', 'monero_secret'],
    output: 'entry',
    configView: 'monero',
    simulatedRpc: 'monero',
  },
  playa3ull: {
    ...base,
    ...entryOnly,
    wizard: 'license',
    steps: 2,
    advancedStep: 2,
    entry: 'license',
    configView: '3ull',
    networkStatus: false,
    startsAlone: true,
    simulatedRpc: 'classic',
  },
  satori: {
    ...base,
    wizard: 'neuron',
    steps: 2,
    advancedStep: 2,
    entry: 'reward_address',
    fields: ['rewardAddress', 'neuronCount'],
    required: ['rewardAddress'],
    output: 'entry',
    configView: 'classic',
    networkStatus: false,
    startsAlone: true,
    simulatedRpc: 'classic',
  },
  sin: {
    ...base,
    wizard: 'burn',
    steps: 9,
    advancedStep: 7,
    entry: 'txid',
    fields: ['txid', 'burntxid', 'burn_output_id'],
    required: ['burntxid', 'burn_output_id'],
    output: 'masternode_conf',
    configView: 'classic',
    exported: true,
    simulatedRpc: 'classic',
  },
  evm: {
    ...base,
    wizard: 'validator',
    steps: 5,
    advancedStep: 4,
    entry: 'keystores',
    fields: UPLOAD_FIELDS,
    required: UPLOAD_FIELDS,
    output: 'validator',
    configView: 'validator',
    validator: true,
    simulatedRpc: 'evm',
  },
  defi: {
    ...base,
    wizard: 'classic',
    steps: 2,
    advancedStep: 2,
    entry: 'txid',
    fields: ['txid'],
    output: 'defi',
    configView: 'defi',
    networkStatus: false,
    deployedAtOnce: true,
    simulatedRpc: 'classic',
  },
};

const withPayload = (p: Profile): FamilyProfile => ({ ...p, payload: payloadSchema(p.fields, p.required) });
export const FAMILY = Object.fromEntries(FAMILIES.map((f) => [f, withPayload(PROFILES[f])])) as Record<
  Family,
  FamilyProfile
>;

export function isFamily(value: string): value is Family {
  return (FAMILIES as readonly string[]).includes(value);
}

/** A family's profile; an unknown family (an old row, a newer catalog) reads as classic. */
export function familyOf(family: string): FamilyProfile {
  return isFamily(family) ? FAMILY[family] : FAMILY.classic;
}

/** The deploy entry's "required" message for a family (section 5, "Deploy (client)"). */
export function entryRequired(family: string): string {
  const entry = familyOf(family).entry;
  return entry === 'address' || entry === 'license' || entry === 'txid' ? ENTRY_REQUIRED[entry] : ENTRY_REQUIRED.txid;
}

/** Whether the family's deploy sends this field (the wizard shows it only then). */
export function takesField(family: string, field: PayloadField): boolean {
  return familyOf(family).fields.includes(field);
}

/**
 * What differs between coins of one family: the words of their wallets and their address
 * rules. Keyed by coin id here and nowhere else.
 */
export type CoinWords = {
  /** What the coin's wallet calls a masternode in its commands (`<word> outputs`, `<word> start-alias`). */
  nodeWord: string;
  /** A monero-type address starts with this (section 5, "Addresses"). */
  addressPrefix: string | null;
  /** The monero-type wallet program the guide names. */
  walletCli: string;
  /** Validators: the staking deposit tool's `--chain` and the site that takes the deposit. */
  deposit: { chain: string; site: string };
};

const COIN_WORDS: Record<string, Partial<CoinWords>> = {
  nix: { nodeWord: 'ghostnode' },
  bdx: { addressPrefix: 'b', walletCli: 'beldex-wallet-cli' },
  oxen: { addressPrefix: 'L', walletCli: 'oxen-wallet-cli' },
  gno: { deposit: { chain: 'gnosis', site: 'https://deposit.gnosischain.com' } },
};

export function coinWords(coinId: string): CoinWords {
  return {
    nodeWord: 'masternode',
    addressPrefix: null,
    walletCli: `${coinId}-wallet-cli`,
    deposit: { chain: 'mainnet', site: 'https://launchpad.ethereum.org' },
    ...COIN_WORDS[coinId],
  };
}
