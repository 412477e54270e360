import { ALIAS_MAX, ALIAS_PATTERN } from '../../shared/node-alias';
import { ADDRESS_REQUIRED, evmAddressError, INVALID_ADDRESS } from '../../shared/evm-address';
import { coinAddressProblem } from '../../shared/address-check';

/**
 * The node page's rules (deployment-and-nodes.md sections 4 and 5), apart from the
 * views so they can be tested without a browser.
 */

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean);

export type StartState = 'start' | 'started' | 'attention';

/**
 * DIP003 start view: `not_active` asks for the sign-message start form; `active` or
 * `migrated` is done; anything else means the node predates the coin's new masternode
 * system ("Attention!"). Whole words, so `not_active` is never read as `active`.
 */
export function dip003State(outputText: string): StartState {
  const w = words(outputText);
  if (w.includes('not_active')) return 'start';
  if (w.includes('active') || w.includes('migrated')) return 'started';
  return 'attention';
}

/** Quick setup is done when the node runs or was migrated. */
export function quickSetupDone(status: string, outputText: string): boolean {
  return status === 'running' || words(outputText).includes('migrated');
}

/** Section 9: a fee address is 34 characters; the steps show only for one of that length. */
export const FEE_ADDRESS_LENGTH = 34;
export const feeAddressComplete = (address: string) => address.trim().length === FEE_ADDRESS_LENGTH;

/** Quick-setup commands hold the fee address as a token; the view fills it in (shared with the server's command). */
export { FEE_ADDRESS_TOKEN, withFeeAddress } from '../../shared/quick-setup';

type Coin = { id: string; label: string };

/**
 * What is wrong with the fee address as typed, once it is as long as an address (before,
 * nothing is said): it must be one of the coin's addresses (src/shared/address-check.ts).
 */
export function feeAddressProblem(coin: Coin, address: string): string | null {
  const value = address.trim();
  if (value.length < FEE_ADDRESS_LENGTH) return null;
  return (
    coinAddressProblem(coin, value) ??
    (value.length === FEE_ADDRESS_LENGTH
      ? null
      : `A ${coin.label} fee address is ${FEE_ADDRESS_LENGTH} characters long.`)
  );
}

/** The command steps show for a whole fee address of the coin, and only then. */
export const feeAddressReady = (coin: Coin, address: string) =>
  feeAddressComplete(address) && feeAddressProblem(coin, address) === null;

export type MoneroState = { kind: 'running' } | { kind: 'start'; command: string } | { kind: 'syncing' };

const REGISTER_COMMAND = /^register_[A-Za-z0-9]+_node$/;

/**
 * Monero-type configuration: running → done; output text beginning with
 * `register_{word}_node` → the start command, which is that text minus its last word;
 * otherwise the node is still syncing.
 */
export function moneroState(status: string, outputText: string): MoneroState {
  if (status === 'running') return { kind: 'running' };
  const command = moneroStartCommand(outputText);
  return command ? { kind: 'start', command } : { kind: 'syncing' };
}

export function moneroStartCommand(outputText: string): string | null {
  const w = words(outputText);
  if (w.length < 2 || !REGISTER_COMMAND.test(w[0])) return null;
  return w.slice(0, -1).join(' ');
}

export { ADDRESS_REQUIRED, INVALID_ADDRESS };
export const NETWORK_FAILURE = 'Something went wrong. Please try again or contact support.';

/**
 * EVM fee recipient (section 5): required once a submit was tried; when not empty, 0x
 * and exactly 40 hex characters, else 'Invalid address'; mixed case must carry a valid
 * EIP-55 checksum, as the server checks, else the checksum message.
 */
export function feeRecipientProblem(value: string, submitTried: boolean): string | null {
  if (!value.trim()) return submitTried ? ADDRESS_REQUIRED : null;
  return evmAddressError(value);
}

/** Server errors that belong under the fee recipient field; the others show by the button. */
export const FEE_FIELDS: ReadonlySet<string> = new Set(['fee_recipient', 'fee_address']);

/** What update_alias receives: null removes the alias. */
export const aliasValue = (alias: string): string | null => alias.trim() || null;

/** The toast after a saved alias (section 8). */
export const aliasToast = (alias: string | null) => (alias ? `Alias changed to: ${alias}` : 'Alias removed');
export const ALIAS_ERROR = 'Error updating alias';
