import { GuideStepView, WizardNav } from '../GuideStep';
import type { GuideStep } from '../guide';
import { stepNav } from './nav';
import type { WizardProps } from './types';

/** A guide step with nothing to fill in: its text and commands, Previous and Next. */
export function InfoStep({ props, steps }: { props: WizardProps; steps: GuideStep[] }) {
  const nav = stepNav(props);
  return (
    <GuideStepView step={steps[props.step - 1]!} number={props.step} total={steps.length}>
      <WizardNav
        onPrevious={nav.previous}
        next={
          <button type="button" className="btn btn-primary" onClick={nav.next}>
            Next
          </button>
        }
      />
    </GuideStepView>
  );
}
