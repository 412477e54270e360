import { previousStep } from '../flow';
import type { WizardProps } from './types';

/** Previous and Next for a wizard's guide steps (flow.ts decides where Previous leads). */
export function stepNav(p: WizardProps) {
  return {
    previous: () => {
      const to = previousStep(p.coin.family, p.experience, p.step);
      if (to === 'begin') p.toBegin();
      else p.setStep(to);
    },
    next: () => p.setStep(p.step + 1),
  };
}
