import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../shared/families';
import { afterBurnCheck, deployAnother, INITIAL, planPrice, previousStep, startStep, wizardOf } from './flow';

describe('where a wizard starts (section 4)', () => {
  it('beginners start every family at step 1', () => {
    for (const f of FAMILIES) expect(startStep(f, 'beginner'), f).toBe(1);
  });

  it('Advanced starts at the spec step of each wizard', () => {
    const advanced = Object.fromEntries(FAMILIES.map((f) => [f, startStep(f, 'advanced')]));
    expect(advanced).toEqual({
      dip003: 4,
      dip003_restrict: 4,
      smartnode: 4,
      classic: 2,
      zen: 4,
      nrg: 2,
      monero: 2,
      playa3ull: 2,
      satori: 2,
      sin: 7,
      evm: 4,
      defi: 2,
    });
  });

  it('an unknown family reads as classic', () => {
    expect(wizardOf({ family: 'brand-new' })).toBe('classic');
    expect(startStep('brand-new', 'advanced')).toBe(2);
  });
});

describe('Previous', () => {
  it('goes one step back, and from the first step back to the plan choice', () => {
    expect(previousStep('dip003', 'beginner', 3)).toBe(2);
    expect(previousStep('dip003', 'beginner', 1)).toBe('begin');
    expect(previousStep('dip003', 'advanced', 4)).toBe('begin');
    expect(previousStep('classic', 'advanced', 2)).toBe('begin');
    expect(previousStep('evm', 'advanced', 4)).toBe('begin');
  });

  it('burn: the Advanced burn step goes back to the start, step 9 back to the burn', () => {
    expect(previousStep('sin', 'advanced', 7)).toBe('begin');
    expect(previousStep('sin', 'advanced', 9)).toBe(7);
    // A beginner walked through 8 (the second collateral) and goes back to it.
    expect(previousStep('sin', 'beginner', 9)).toBe(8);
    expect(previousStep('sin', 'beginner', 7)).toBe(6);
  });
});

describe('the burn check', () => {
  it('jumps Advanced to the collateral ID (9); beginners first see the second collateral (8)', () => {
    expect(afterBurnCheck('advanced')).toBe(9);
    expect(afterBurnCheck('beginner')).toBe(8);
  });
});

describe("'Deploy another node'", () => {
  const deploying = { ...INITIAL, stage: 'deploying' as const, step: 9, serverId: 'sin-aaaa', plan: 'cloud' as const };

  it('beginner: back to the plan choice, keeping the plan', () => {
    expect(deployAnother(deploying, 'sin')).toEqual({ stage: 'begin', step: 1, plan: 'cloud', experience: 'beginner', serverId: null });
  });

  it("advanced: back to the guide's Advanced step of the family", () => {
    expect(deployAnother({ ...deploying, experience: 'advanced' }, 'sin')).toMatchObject({ stage: 'guide', step: 7, serverId: null });
    expect(deployAnother({ ...deploying, experience: 'advanced', stage: 'deployed' }, 'dip003')).toMatchObject({ stage: 'guide', step: 4 });
    expect(deployAnother({ ...deploying, experience: 'advanced' }, 'classic')).toMatchObject({ stage: 'guide', step: 2 });
  });
});

describe('plan prices', () => {
  const coin = { dedicated_price: 0.13, cloud_price: 0.0625, campaign: false, campaign_prices: { dedicated_price: 0.33, cloud_price: 0.13 } };

  it('shows the daily price to 3 decimals', () => {
    expect(planPrice(coin, 'dedicated')).toEqual({ price: '0.130', old: null });
    expect(planPrice(coin, 'cloud')).toEqual({ price: '0.063', old: null });
  });

  it('with a campaign on, the campaign price with the old one beside it', () => {
    expect(planPrice({ ...coin, campaign: true, campaign_prices: { dedicated_price: 0.1, cloud_price: 0.05 } }, 'dedicated')).toEqual({ price: '0.100', old: '0.130' });
    expect(planPrice({ ...coin, campaign: true, campaign_prices: { dedicated_price: 0.1, cloud_price: 0.05 } }, 'cloud')).toEqual({ price: '0.050', old: '0.063' });
  });
});
