import { FEE_ADDRESS_TOKEN } from '../../shared/quick-setup';

/**
 * The API's start command (`start_cmd`, with `start_cmd_missing`): the node page's
 * commands keep named slots (`<ownerAddress>`, the fee-address token) that its fields fill,
 * but a script reading the API has no such fields, and a slot run as it is fails in the
 * wallet. So the API gives the command only when every value in it is known; otherwise
 * `start_cmd` is '' and `start_cmd_missing` names, in words, each value still needed: the
 * ones only the owner's wallet has (owner and voting addresses), and the node's own ones
 * the platform has not got yet (its address before it is placed on a server). The known
 * values are in the node's other fields (`server_ip`, `output_text`, `payee`).
 */
const SLOT_WORDS: Record<string, string> = {
  ownerAddress: 'owner address',
  votingAddress: 'voting address',
  payoutAddress: 'payout address',
  collateralHash: 'collateral transaction id',
  collateralIndex: 'collateral output index',
  operatorPubKey: 'operator public key',
  ip: 'node address',
  port: 'node address',
};
const SLOT = /<([A-Za-z][A-Za-z ]{0,40})>/g;

export function apiStartCommand(command: string): { start_cmd: string; start_cmd_missing: string[] } {
  const missing = [...command.matchAll(SLOT)].map((m) => SLOT_WORDS[m[1]] ?? m[1].toLowerCase());
  if (command.includes(FEE_ADDRESS_TOKEN)) missing.push('fee source address');
  if (missing.length === 0) return { start_cmd: command, start_cmd_missing: [] };
  return { start_cmd: '', start_cmd_missing: [...new Set(missing)] };
}
