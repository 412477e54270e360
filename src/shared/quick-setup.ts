/**
 * The quick-setup command (`protx quick_setup`) is written by the server with the node's
 * values and this token where the customer's fee source address goes; the node page fills
 * it with what the customer typed, once that is an address of the coin.
 */
export const FEE_ADDRESS_TOKEN = '{fee_address}';
export const withFeeAddress = (command: string, address: string) =>
  command.split(FEE_ADDRESS_TOKEN).join(address.trim());
