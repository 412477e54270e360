import { useState, type FormEvent } from 'react';
import { Alert } from '../../ui/Alert';
import { DeployTextField } from './DeployTextField';
import { DeployNav, GuideStepView } from '../GuideStep';
import { guideSteps } from '../guide';
import { useDeploy } from '../useDeploy';
import { InfoStep } from './InfoStep';
import { stepNav } from './nav';
import type { WizardProps } from './types';

/**
 * DIP003 (Dash and its family): prerequisites, the payment to yourself, then the
 * collateral's transaction ID with the payee choice and migration (section 5). BITG
 * (dip003_restrict) always asks for a payee address starting with 3.
 */
export function Dip003Wizard(props: WizardProps) {
  const steps = guideSteps(props.coin);
  if (props.step < steps.length) return <InfoStep props={props} steps={steps} />;
  return <Dip003Form props={props} steps={steps} />;
}

function Dip003Form({ props, steps }: { props: WizardProps; steps: ReturnType<typeof guideSteps> }) {
  const { coin } = props;
  const restricted = coin.dip003_restrict;
  const [txid, setTxid] = useState('');
  const [ownPayee, setOwnPayee] = useState(false);
  const [payee, setPayee] = useState('');
  const [migrate, setMigrate] = useState(false);
  const [blsKey, setBlsKey] = useState('');
  const deploy = useDeploy(coin, props.plan, (r) => props.onDeployed(r.server_id));
  const nav = stepNav(props);
  const askPayee = restricted || ownPayee;

  function submit(e: FormEvent) {
    e.preventDefault();
    void deploy.send({
      txid,
      ...(askPayee ? { payee: payee.trim() } : {}),
      ...(migrate ? { migrate: true, blsKey: blsKey.trim() } : {}),
    });
  }

  return (
    <GuideStepView step={steps[steps.length - 1]!} number={props.step} total={steps.length}>
      <form onSubmit={submit} noValidate className="guide-form">
        {deploy.error && <Alert kind="error">{deploy.error}</Alert>}
        <DeployTextField deploy={deploy} field="txid" label="Transaction ID" value={txid} onValueChange={setTxid} />
        {!restricted && (
          <fieldset className="radio-group">
            <legend>Payee address</legend>
            <label className="check-label">
              <input type="radio" name="payee-choice" checked={!ownPayee} onChange={() => setOwnPayee(false)} /> Use the same address I sent the collateral to
            </label>
            <label className="check-label">
              <input type="radio" name="payee-choice" checked={ownPayee} onChange={() => setOwnPayee(true)} /> Use another one
            </label>
          </fieldset>
        )}
        {askPayee && (
          <DeployTextField deploy={deploy} field="payee" label="Payee address" value={payee} onValueChange={setPayee} hint={restricted ? `A ${coin.label} payee address starts with 3.` : 'The address your rewards are paid to.'} />
        )}
        <label className="check-label">
          <input type="checkbox" checked={migrate} onChange={(e) => setMigrate(e.target.checked)} /> I want to migrate my masternode from another platform
        </label>
        {migrate && (
          <DeployTextField deploy={deploy} field="blsKey" label="Operator key (BLS secret key)" value={blsKey} onValueChange={setBlsKey} />
        )}
        <DeployNav onPrevious={nav.previous} pending={deploy.pending} />
      </form>
    </GuideStepView>
  );
}
