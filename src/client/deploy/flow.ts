import { familyOf, type WizardKind } from '../../shared/families';
import type { DeployInfoCoin, Plan } from '../../shared/schemas/deploy';

/**
 * The deploy page's step logic (deployment-and-nodes.md sections 2 and 4), kept pure so
 * it is tested without a browser: where a wizard starts, where Previous and a valid
 * burn check lead, where 'Deploy another node' returns.
 */
export type Experience = 'beginner' | 'advanced';
export type Stage = 'begin' | 'guide' | 'deploying' | 'deployed';

/** Where the page is. `step` is the guide's step (from 1); `serverId` is the node it waits for. */
export type DeployState = { stage: Stage; step: number; plan: Plan; experience: Experience; serverId: string | null };

export const INITIAL: DeployState = { stage: 'begin', step: 1, plan: 'dedicated', experience: 'beginner', serverId: null };

/** The guide step a deploy starts at: 1 for beginners, the family's Advanced step otherwise. */
export function startStep(family: string, experience: Experience): number {
  return experience === 'advanced' ? familyOf(family).advancedStep : 1;
}

/**
 * Previous from a guide step: a step number, or 'begin' to go back to the plan choice.
 * The burn wizard's Advanced path skips the wallet preparation both ways: step 9 goes
 * back to the burn (7), and the burn back to the start.
 */
export function previousStep(family: string, experience: Experience, step: number): number | 'begin' {
  if (familyOf(family).wizard === 'burn' && experience === 'advanced' && step === 9) return 7;
  return step <= startStep(family, experience) ? 'begin' : step - 1;
}

/**
 * After a valid burn check (step 7): Advanced goes straight to the collateral's
 * transaction ID (9); a beginner is first shown how to prepare the second, 10,000-coin
 * collateral (8). See src/client/deploy/README.md.
 */
export function afterBurnCheck(experience: Experience): number {
  return experience === 'advanced' ? 9 : 8;
}

/** 'Deploy another node': back to the plan choice (beginner) or the guide's Advanced step. */
export function deployAnother(state: DeployState, family: string): DeployState {
  if (state.experience === 'beginner') return { ...state, stage: 'begin', step: 1, serverId: null };
  return { ...state, stage: 'guide', step: familyOf(family).advancedStep, serverId: null };
}

export function wizardOf(coin: Pick<DeployInfoCoin, 'family'>): WizardKind {
  return familyOf(coin.family).wizard;
}

/** A plan card's daily price to 3 decimals; with a campaign on, the old price is struck through beside it. */
export function planPrice(coin: Pick<DeployInfoCoin, 'dedicated_price' | 'cloud_price' | 'campaign' | 'campaign_prices'>, plan: Plan): { price: string; old: string | null } {
  const regular = plan === 'dedicated' ? coin.dedicated_price : coin.cloud_price;
  if (!coin.campaign) return { price: regular.toFixed(3), old: null };
  const campaign = plan === 'dedicated' ? coin.campaign_prices.dedicated_price : coin.campaign_prices.cloud_price;
  return { price: campaign.toFixed(3), old: regular.toFixed(3) };
}
