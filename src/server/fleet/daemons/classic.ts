import * as v from 'valibot';
import { bitcoinCall, type BitcoinRpc } from './jsonrpc';

// Classic (pre-DIP003) masternode coins: the hosted node holds a masternode private key in
// its config (`masternodeprivkey`, the profile's operator_key_option); the owner's wallet
// lists the node in masternode.conf and starts it (`masternode start-alias <alias>`).

/** A base58 private key (WIF): 51-52 characters. */
const Wif = v.pipe(v.string(), v.regex(/^[1-9A-HJ-NP-Za-km-z]{50,53}$/));

/**
 * A fresh masternode private key from the node's own daemon: `masternode genkey` on Dash
 * 0.12-era forks, `createmasternodekey` on PIVX-era forks (`method`).
 */
export function masternodeGenkey(
  rpc: BitcoinRpc,
  method: 'masternode genkey' | 'createmasternodekey' = 'masternode genkey',
): Promise<string> {
  return method === 'createmasternodekey'
    ? bitcoinCall(rpc, 'createmasternodekey', [], Wif)
    : bitcoinCall(rpc, 'masternode', ['genkey'], Wif);
}

/**
 * The owner's masternode.conf line: `<alias> <ip>:<port> <masternodeprivkey> <collateral
 * txid> <output index>` (an IPv6 address in brackets). Aliases are one word.
 */
export function masternodeConfLine(p: {
  alias: string;
  ip: string;
  port: number;
  privkey: string;
  txid: string;
  index: number;
}): string {
  const alias = p.alias.trim().replace(/\s+/g, '_') || 'mn1';
  const host = p.ip.includes(':') ? `[${p.ip}]` : p.ip;
  return `${alias} ${host}:${p.port} ${p.privkey} ${p.txid} ${p.index}`;
}

/** What the owner runs in their wallet to start the node once the line is in masternode.conf. */
export const startAliasCommand = (alias: string) =>
  `masternode start-alias ${alias.trim().replace(/\s+/g, '_') || 'mn1'}`;
