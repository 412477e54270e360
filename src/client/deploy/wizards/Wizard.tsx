import { wizardOf } from '../flow';
import { BurnWizard } from './BurnWizard';
import { Dip003Wizard } from './Dip003Wizard';
import { EntryWizard } from './EntryWizard';
import { NeuronWizard } from './NeuronWizard';
import type { WizardProps } from './types';
import { ValidatorWizard } from './ValidatorWizard';

/** The coin family's wizard (families.ts `wizard`). */
export function Wizard(props: WizardProps) {
  switch (wizardOf(props.coin)) {
    case 'burn':
      return <BurnWizard {...props} />;
    case 'dip003':
      return <Dip003Wizard {...props} />;
    case 'validator':
      return <ValidatorWizard {...props} />;
    case 'neuron':
      return <NeuronWizard {...props} />;
    case 'zen':
    case 'monero':
    case 'energi':
    case 'license':
    case 'classic':
      return <EntryWizard {...props} />;
  }
}
