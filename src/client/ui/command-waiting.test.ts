import { describe, expect, it } from 'vitest';
import { waitingSentence } from './command-waiting';

describe('a command waiting for a value the platform has not got yet', () => {
  it('says the address comes with the placement, and shows no slot', () => {
    const s = waitingSentence('masternode.conf', 'pivx-1 <ip>:<port> key tx 1');
    expect(s).toBe(
      "masternode.conf: shown here with the node's address. The address appears when the node is placed on a server.",
    );
    expect(s).not.toMatch(/<[^>]*>|\{[^}]*\}/);
  });
  it('names the other values otherwise', () => {
    expect(
      waitingSentence('Prepare the registration', 'protx register_prepare tx 0 1.2.3.4:9999 o <operatorPubKey>'),
    ).toBe("Prepare the registration: shown once this node's details are complete (its keys and collateral).");
  });
});
