/**
 * The one registry of coin families (deployment-and-nodes.md sections 2, 4, 5): which
 * wizard a coin gets, its steps and where Advanced starts, what the customer types and
 * the message when it is missing, which configuration view its node page shows, whether
 * its nodes go into the portfolio's export text and show a network status. The client,
 * the server and the fleet all read it; nothing else decides by family or coin id.
 */
export const FAMILIES = ['dip003', 'dip003_restrict', 'smartnode', 'classic', 'zen', 'nrg', 'monero', 'playa3ull', 'satori', 'sin', 'evm', 'defi'] as const;
export type Family = (typeof FAMILIES)[number];

export type WizardKind = 'burn' | 'dip003' | 'zen' | 'monero' | 'license' | 'neuron' | 'validator' | 'energi' | 'classic';

/** The node page's Configuration tab, one view per node kind (section 2, "Node page"). */
export type ConfigView = 'dip003_restrict' | 'dip003' | 'quick_setup' | 'zen' | 'nrg' | '3ull' | 'monero' | 'validator' | 'classic';

/** What the fleet's daemon for the family speaks, when the coin names no daemon profile. */
export type SimulatedRpc = 'dash' | 'classic' | 'monero' | 'evm';

/** The messages of section 5 for an empty entry field. */
export const ENTRY_REQUIRED = {
  address: 'Address required.',
  license: 'License key required.',
  txid: 'Transaction ID required.',
} as const;

export type FamilyProfile = {
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
};

const base = { exported: false, networkStatus: true, governance: false, deployedAtOnce: false } as const;

export const FAMILY: Record<Family, FamilyProfile> = {
  dip003: { ...base, wizard: 'dip003', steps: 4, advancedStep: 4, entry: 'txid', configView: 'dip003', governance: true, simulatedRpc: 'dash' },
  dip003_restrict: { ...base, wizard: 'dip003', steps: 4, advancedStep: 4, entry: 'txid', configView: 'dip003_restrict', governance: true, simulatedRpc: 'dash' },
  // Raptoreum-style smartnodes: the dip003 wizard (they carry the dip003 flag), then `protx quick_setup`.
  smartnode: { ...base, wizard: 'dip003', steps: 4, advancedStep: 4, entry: 'txid', configView: 'quick_setup', simulatedRpc: 'dash' },
  classic: { ...base, wizard: 'classic', steps: 2, advancedStep: 2, entry: 'txid', configView: 'classic', exported: true, simulatedRpc: 'classic' },
  zen: { ...base, wizard: 'zen', steps: 4, advancedStep: 4, entry: 'address', configView: 'zen', networkStatus: false, simulatedRpc: 'classic' },
  nrg: { ...base, wizard: 'energi', steps: 2, advancedStep: 2, entry: 'address', configView: 'nrg', networkStatus: false, simulatedRpc: 'classic' },
  monero: { ...base, wizard: 'monero', steps: 2, advancedStep: 2, entry: 'address', configView: 'monero', simulatedRpc: 'monero' },
  playa3ull: { ...base, wizard: 'license', steps: 2, advancedStep: 2, entry: 'license', configView: '3ull', networkStatus: false, simulatedRpc: 'classic' },
  satori: { ...base, wizard: 'neuron', steps: 2, advancedStep: 2, entry: 'reward_address', configView: 'classic', networkStatus: false, simulatedRpc: 'classic' },
  sin: { ...base, wizard: 'burn', steps: 9, advancedStep: 7, entry: 'txid', configView: 'classic', exported: true, simulatedRpc: 'classic' },
  evm: { ...base, wizard: 'validator', steps: 5, advancedStep: 4, entry: 'keystores', configView: 'validator', simulatedRpc: 'evm' },
  defi: { ...base, wizard: 'classic', steps: 2, advancedStep: 2, entry: 'txid', configView: 'classic', networkStatus: false, deployedAtOnce: true, simulatedRpc: 'classic' },
};

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
