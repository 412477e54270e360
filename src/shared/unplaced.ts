/**
 * What a node's masternode.conf-layout line holds where its ip:port goes until the
 * fleet has placed it: a plain word, never the stored `{address}` token. The portfolio
 * export turns such a line into a comment, which the wallet skips.
 */
export const UNPLACED_ADDRESS = 'unplaced';
