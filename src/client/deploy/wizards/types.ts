import type { DeployInfoCoin, Plan } from '../../../shared/schemas/deploy';
import type { Experience } from '../flow';

/** What the page gives a wizard: the coin, the choices of the begin step, and the guide's step. */
export type WizardProps = {
  coin: DeployInfoCoin;
  plan: Plan;
  experience: Experience;
  step: number;
  setStep: (step: number) => void;
  /** Previous from the first step: back to the plan and experience choice. */
  toBegin: () => void;
  /** A deploy was accepted: the page moves to "deploying" and waits for this node. */
  onDeployed: (serverId: string) => void;
};
