import { withArticle } from './english';
import { coinAddressProblem, txidProblem } from './address-check';
import { coinWords, entryRequired, familyOf } from './families';
import type { DeployField, DeployServerInput } from './schemas/deploy-payload';

/**
 * Section 5's deploy rules with their exact messages, run by the wizard before it sends
 * and by the server on every deploy, so a script gets the browser's answer. Checks that
 * need the server (a real BLS key, a ZEN address used before, a burn on the chain) are
 * in src/server/deploy.
 */
export type FieldProblem = { field: DeployField; message: string };

export const PAYEE_REQUIRED = 'Payee address required.';
export const PAYEE_INCORRECT = 'Correct payee address required.';
export const BLS_INCORRECT = 'Incorrect BLS key';
export const MAX_NEURONS = 50;

/** A field the coin's family does not send (families.ts `fields`). */
export const fieldNotTaken = (label: string, field: string) =>
  `The field "${field}" is not part of ${withArticle(label)} deploy.`;

export const addressNotValid = (label: string, prefix: string) =>
  `Address is not valid: ${withArticle(label)} address starts with "${prefix}".`;

type Coin = { id: string; label: string; family: string; dip003_restrict: boolean };

/** Nothing sent: an absent, empty or unticked field (a script's fixed template) is not a field the family refuses. */
// 0 too: a script's fixed template sends burn_output_id 0 for coins that take no burn (a SIN deploy keeps it: its family takes the field).
const empty = (v: unknown) =>
  v === undefined || v === null || v === false || v === 0 || (typeof v === 'string' && v.trim() === '');

/**
 * The first field of the payload that the coin's family does not take, run through the
 * family's own schema (families.ts `payload`); the shapes of the fields it does take are
 * the transport schema's to judge.
 */
export function payloadProblem(coin: Pick<Coin, 'label' | 'family'>, input: object): FieldProblem | null {
  const family = familyOf(coin.family);
  const sent = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => !empty(v) || (family.fields as readonly string[]).includes(k)),
  );
  const r = family.payload.safeParse({ currency: '-', ...sent });
  if (r.success) return null;
  for (const issue of r.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const field = issue.keys.find((k) => k !== 'currency' && k !== 'package') ?? issue.keys[0];
      return { field: field as DeployField, message: fieldNotTaken(coin.label, field) };
    }
  }
  return null;
}

export function deployProblem(
  coin: Coin,
  input: Pick<
    DeployServerInput,
    'txid' | 'payee' | 'blsKey' | 'migrate' | 'rewardAddress' | 'neuronCount' | 'burntxid'
  >,
): FieldProblem | null {
  const foreign = payloadProblem(coin, input);
  if (foreign) return foreign;
  const family = familyOf(coin.family);
  const txid = (input.txid ?? '').trim();
  const migrate = input.migrate === true;
  if (family.entry === 'reward_address') {
    if (!input.rewardAddress?.trim()) return { field: 'rewardAddress', message: 'Address required.' };
    const wrong = coinAddressProblem(coin, input.rewardAddress);
    if (wrong) return { field: 'rewardAddress', message: wrong };
    const n = input.neuronCount ?? 1;
    if (!Number.isInteger(Number(n)) || Number(n) < 1 || Number(n) > MAX_NEURONS)
      return { field: 'neuronCount', message: `You can deploy 1 to ${MAX_NEURONS} neurons at once.` };
    return null;
  }
  if (family.entry === 'keystores') return null; // the multipart form has its own rules
  if (!txid && !migrate) return { field: 'txid', message: entryRequired(coin.family) };
  const prefix = coinWords(coin.id).addressPrefix;
  if (prefix && txid && !txid.startsWith(prefix))
    return { field: 'txid', message: addressNotValid(coin.label, prefix) };
  const entryWrong = txid ? entryProblem(coin, txid) : null;
  if (entryWrong) return { field: 'txid', message: entryWrong };
  const payee = input.payee?.trim() ?? '';
  if (coin.dip003_restrict) {
    if (!payee) return { field: 'payee', message: PAYEE_REQUIRED };
    if (!payee.startsWith('3')) return { field: 'payee', message: PAYEE_INCORRECT };
  }
  const payeeWrong = payee ? coinAddressProblem(coin, payee) : null;
  if (payeeWrong) return { field: 'payee', message: payeeWrong };
  const burn = input.burntxid?.trim() ?? '';
  const burnWrong = burn ? txidProblem(burn, false) : null;
  if (burnWrong) return { field: 'burntxid', message: burnWrong };
  if (migrate && !/^[0-9a-fA-F]{64}$/.test(input.blsKey?.trim() ?? ''))
    return { field: 'blsKey', message: BLS_INCORRECT };
  return null;
}

/**
 * What the entry field holds, checked as the coin checks it: a transaction ID (with the
 * output index where the node's line carries one: masternode.conf and DIP003 outpoints),
 * or an address of the coin (ZEN, Energi). Monero-type addresses keep their prefix rule
 * above; a license key is the issuer's to judge.
 */
function entryProblem(coin: Coin, entry: string): string | null {
  const family = familyOf(coin.family);
  if (family.entry === 'txid')
    return txidProblem(entry, family.output === 'dip003' || family.output === 'masternode_conf');
  if (family.entry === 'address' && family.configView !== 'monero') return coinAddressProblem(coin, entry);
  return null;
}
