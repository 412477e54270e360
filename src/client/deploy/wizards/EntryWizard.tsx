import { useState, type FormEvent } from 'react';
import { Alert } from '../../ui/Alert';
import { DeployTextField } from './DeployTextField';
import { takesField } from '../../../shared/families';
import { DeployNav, GuideStepView } from '../GuideStep';
import { entryLabel, guideSteps } from '../guide';
import { useDeploy } from '../useDeploy';
import { InfoStep } from './InfoStep';
import { stepNav } from './nav';
import type { WizardProps } from './types';

/**
 * The wizards whose last step is one entry field: classic (and DFI), Energi, ZEN,
 * 3ULL's license key, and the monero type, which also offers migration with the
 * node's secret key (sent only when filled in).
 */
export function EntryWizard(props: WizardProps) {
  const steps = guideSteps(props.coin);
  if (props.step < steps.length) return <InfoStep props={props} steps={steps} />;
  return <EntryForm props={props} total={steps.length} step={steps[steps.length - 1]!} />;
}

function EntryForm({ props, total, step }: { props: WizardProps; total: number; step: ReturnType<typeof guideSteps>[number] }) {
  const { coin } = props;
  // Monero-type migrations carry the node's secret key (families.ts `fields`).
  const monero = takesField(coin.family, 'monero_secret');
  const [txid, setTxid] = useState('');
  const [migrate, setMigrate] = useState(false);
  const [secret, setSecret] = useState('');
  const deploy = useDeploy(coin, props.plan, (r) => props.onDeployed(r.server_id));
  const nav = stepNav(props);

  function submit(e: FormEvent) {
    e.preventDefault();
    void deploy.send({ txid, ...(monero && migrate && secret.trim() ? { monero_secret: secret.trim() } : {}) });
  }

  return (
    <GuideStepView step={step} number={props.step} total={total}>
      <form onSubmit={submit} noValidate className="guide-form">
        {deploy.error && <Alert kind="error">{deploy.error}</Alert>}
        <DeployTextField deploy={deploy} field="txid" label={entryLabel(coin)} value={txid} onValueChange={setTxid} />
        {monero && (
          <>
            <label className="check-label">
              <input type="checkbox" checked={migrate} onChange={(e) => setMigrate(e.target.checked)} /> I want to migrate my masternode from another platform
            </label>
            {migrate && (
              <DeployTextField deploy={deploy} field="monero_secret" label="Secret key" value={secret} onValueChange={setSecret} hint="The node's secret key from your current platform." />
            )}
          </>
        )}
        <DeployNav onPrevious={nav.previous} pending={deploy.pending} />
      </form>
    </GuideStepView>
  );
}
