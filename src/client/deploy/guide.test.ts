import { describe, expect, it } from 'vitest';
import { FAMILY, type Family } from '../../shared/families';
import { guideSteps } from './guide';

const coin = (id: string, family: Family, ticker: string, collateral: number) => ({ id, family, ticker, label: id.toUpperCase(), collateral });
const commands = (c: ReturnType<typeof coin>) => guideSteps(c).flatMap((s) => s.commands.map((x) => x.text));

describe('guide steps per wizard', () => {
  it('has as many steps as the family registry says', () => {
    const coins = [coin('sin', 'sin', 'SIN', 1_000_000), coin('dash', 'dip003', 'DASH', 1000), coin('zen42', 'zen', 'ZEN', 42), coin('pivx', 'classic', 'PIVX', 10000), coin('bdx', 'monero', 'BDX', 10000), coin('nrg', 'nrg', 'NRG', 1000), coin('playa3ull', 'playa3ull', '3ULL', 0), coin('satori', 'satori', 'SATORI', 50), coin('eth', 'evm', 'ETH', 32), coin('defi', 'defi', 'DFI', 20000)];
    for (const c of coins) expect(guideSteps(c).length, c.id).toBe(FAMILY[c.family as Family].steps);
  });

  it("dip003: Dash's own commands with the coin's collateral", () => {
    expect(commands(coin('dash', 'dip003', 'DASH', 1000))).toEqual(expect.arrayContaining(['getnewaddress', 'sendtoaddress <your new address> 1000', 'masternode outputs']));
  });

  it('burn: collateral + 25, then a second collateral of exactly 10000, the burn of the collateral', () => {
    const c = commands(coin('sin', 'sin', 'SIN', 1_000_000));
    expect(c).toContain('sendtoaddress <your new address> 1000025');
    expect(c).toContain('infinitynodeburnfund <your new address> 1000000 <your backup address>');
    expect(c).toContain('sendtoaddress <your other address> 10000');
    // The passphrase is never asked for or filled in here: the step says how, in words.
    expect(c.join(' ')).not.toMatch(/passphrase/);
    expect(guideSteps(coin('sin', 'sin', 'SIN', 1_000_000))[0]!.text.join(' ')).toContain('valid for 1 year');
  });

  it('classic: legacy addresses for XSN, ghostnode outputs for NIX', () => {
    expect(commands(coin('xsn', 'classic', 'XSN', 15000))).toEqual(['getnewaddress MN1 legacy', 'sendtoaddress <your new address> 15000', 'masternode outputs']);
    expect(commands(coin('nix', 'classic', 'NIX', 40000))).toContain('ghostnode outputs');
  });

  it('validators: mainnet keys for ETH, gnosis for GNO', () => {
    expect(commands(coin('eth', 'evm', 'ETH', 32)).join('\n')).toContain('--chain mainnet');
    expect(commands(coin('gno', 'evm', 'GNO', 1)).join('\n')).toContain('--chain gnosis');
  });
});
