import { useState, type FormEvent } from 'react';
import { MAX_NEURONS } from '../../../shared/deploy-rules';
import { Alert } from '../../ui/Alert';
import { TextField } from '../../ui/Field';
import { DeployTextField } from './DeployTextField';
import { DeployNav, GuideStepView } from '../GuideStep';
import { guideSteps } from '../guide';
import { useDeploy } from '../useDeploy';
import { InfoStep } from './InfoStep';
import { stepNav } from './nav';
import type { WizardProps } from './types';

/** Satori: prerequisites, then the reward address and how many neurons (1 to 50; one node each). */
export function NeuronWizard(props: WizardProps) {
  const steps = guideSteps(props.coin);
  if (props.step < steps.length) return <InfoStep props={props} steps={steps} />;
  return <NeuronForm props={props} steps={steps} />;
}

function NeuronForm({ props, steps }: { props: WizardProps; steps: ReturnType<typeof guideSteps> }) {
  const [rewardAddress, setRewardAddress] = useState('');
  const [count, setCount] = useState('1');
  const deploy = useDeploy(props.coin, props.plan, (r) => props.onDeployed(r.server_id));
  const nav = stepNav(props);

  function submit(e: FormEvent) {
    e.preventDefault();
    // Sent as a number (the server takes nothing else); an empty or odd field becomes 0 or NaN, which the wizard's own check names.
    void deploy.send({ rewardAddress: rewardAddress.trim(), neuronCount: Number(count.trim()) });
  }

  return (
    <GuideStepView step={steps[steps.length - 1]!} number={props.step} total={steps.length}>
      <form onSubmit={submit} noValidate className="guide-form">
        {deploy.error && <Alert kind="error">{deploy.error}</Alert>}
        <DeployTextField deploy={deploy} field="rewardAddress" label="Reward address" value={rewardAddress} onValueChange={setRewardAddress} />
        <TextField
          label="Number of neurons"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_NEURONS}
          value={count}
          onValueChange={(v) => {
            setCount(v);
            deploy.clear('neuronCount');
          }}
          error={deploy.errors.neuronCount}
          hint={`Up to ${MAX_NEURONS} at once; each neuron is its own node.`}
        />
        <DeployNav onPrevious={nav.previous} pending={deploy.pending} />
      </form>
    </GuideStepView>
  );
}
