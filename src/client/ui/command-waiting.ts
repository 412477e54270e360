/**
 * Why a command for the customer's wallet is not shown yet, when a value in it is the
 * platform's and not known yet (a `<…>` slot left after the customer's own are filled).
 * The usual one is the node's address: a node gets it when it is placed on a server, a few
 * seconds after the deploy, and a command naming `<ip>` would run against no node.
 */
const ADDRESS_SLOT = /<(ip|port)>/;

export function waitingSentence(label: string, text: string): string {
  if (ADDRESS_SLOT.test(text))
    return `${label}: shown here with the node's address. The address appears when the node is placed on a server.`;
  return `${label}: shown once this node's details are complete (its keys and collateral).`;
}
