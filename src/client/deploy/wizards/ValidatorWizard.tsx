import { useState } from 'react';
import type { DeployValidatorsOutput } from '../../../shared/schemas/deploy';
import { InfoStep } from './InfoStep';
import { ValidatorResults } from './ValidatorResults';
import { ValidatorUpload } from './ValidatorUpload';
import { guideSteps } from '../guide';
import type { WizardProps } from './types';

const UPLOAD_STEP = 4;
const RESULTS_STEP = 5;

/**
 * EVM validators (section 4): prerequisites, key generation, the beacon chain deposit,
 * the keystore upload, then one result per file; 'Deploy more' goes back to the upload.
 */
export function ValidatorWizard(props: WizardProps) {
  const steps = guideSteps(props.coin);
  const [result, setResult] = useState<DeployValidatorsOutput | null>(null);
  if (props.step === RESULTS_STEP && result)
    return (
      <ValidatorResults
        result={result}
        step={steps[RESULTS_STEP - 1]!}
        total={steps.length}
        onMore={() => {
          setResult(null);
          props.setStep(UPLOAD_STEP);
        }}
      />
    );
  if (props.step >= UPLOAD_STEP)
    return (
      <ValidatorUpload
        props={{ ...props, step: UPLOAD_STEP }}
        steps={steps}
        onResult={(r) => {
          setResult(r);
          props.setStep(RESULTS_STEP);
        }}
      />
    );
  return <InfoStep props={props} steps={steps} />;
}
