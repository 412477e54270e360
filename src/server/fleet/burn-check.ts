import type { BurnResult } from './access';
import type { BitcoinRpc } from './daemons/bitcoin';
import { BURN_MESSAGES, checkBurn } from './daemons/burn';

export { BURN_MESSAGES };

/** Where SIN's burns go (SIN-core src/chainparams.cpp:169, catalog/daemon-facts/sind.json). */
export const SIN_BURN_ADDRESS = 'SinBurnAddress123456789SuqaXbx3AMC';

/**
 * SIN's burn check as the deploy needs it: the daemon reader's answer (daemons/burn.ts)
 * with the burn output's index as the number the deploy stores in `burn_output_id`.
 */
export async function lookUpBurn(rpc: BitcoinRpc, txid: string): Promise<BurnResult> {
  const r = await checkBurn(rpc, txid, { burnAddresses: [SIN_BURN_ADDRESS] });
  if (!r.ok || r.output_id === null) return { ok: false, message: r.message };
  return { ok: true, output_id: Number(r.output_id.slice(r.output_id.lastIndexOf('-') + 1)) };
}
