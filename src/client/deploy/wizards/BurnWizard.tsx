import { useState, type FormEvent } from 'react';
import { txidProblem } from '../../../shared/address-check';
import { SIMULATED_BURN_PREFIX } from '../../../shared/simulated-burn';
import { errorMessage } from '../../app/errors';
import { trpc } from '../../app/trpc';
import { Alert } from '../../ui/Alert';
import { TextField } from '../../ui/Field';
import { DeployTextField } from './DeployTextField';
import { afterBurnCheck } from '../flow';
import { DeployNav, GuideStepView, WizardNav } from '../GuideStep';
import { guideSteps } from '../guide';
import { useDeploy } from '../useDeploy';
import { InfoStep } from './InfoStep';
import { stepNav } from './nav';
import type { WizardProps } from './types';

const BURN_STEP = 7;
const COLLATERAL_STEP = 9;

type Burn = { txid: string; outputId: number };

/**
 * SIN's burn-collateral wizard (section 4): wallet preparation, the burn checked on the
 * coin's daemon (check_burn), the second collateral, then its transaction ID. Steps after
 * the burn need a checked burn: without one the burn step shows.
 */
export function BurnWizard(props: WizardProps) {
  const steps = guideSteps(props.coin);
  const [burn, setBurn] = useState<Burn | null>(null);
  const step = props.step > BURN_STEP && !burn ? BURN_STEP : props.step;
  const at = { ...props, step };
  if (step === BURN_STEP)
    return (
      <BurnStep
        props={at}
        steps={steps}
        onChecked={(b) => {
          setBurn(b);
          props.setStep(afterBurnCheck(props.experience));
        }}
      />
    );
  if (step === COLLATERAL_STEP && burn) return <CollateralStep props={at} steps={steps} burn={burn} />;
  return <InfoStep props={at} steps={steps} />;
}

function BurnStep({ props, steps, onChecked }: { props: WizardProps; steps: ReturnType<typeof guideSteps>; onChecked: (burn: Burn) => void }) {
  const [txid, setTxid] = useState('');
  const [error, setError] = useState<string | null>(null);
  const check = trpc.deploy.check_burn.useMutation();
  const nav = stepNav(props);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (check.isPending) return;
    const value = txid.trim();
    if (!value) return setError('Transaction ID required.');
    const malformed = txidProblem(value, false);
    if (malformed) return setError(malformed);
    setError(null);
    try {
      const r = await check.mutateAsync({ currency: props.coin.id, txid: value });
      onChecked({ txid: value, outputId: r.output_id });
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <GuideStepView step={steps[BURN_STEP - 1]!} number={BURN_STEP} total={steps.length}>
      <form onSubmit={(e) => void submit(e)} noValidate className="guide-form">
        <TextField
          label="Burn transaction ID"
          value={txid}
          onValueChange={(v) => {
            setTxid(v);
            setError(null);
          }}
          error={error ?? undefined}
          hint={props.coin.simulated ? <DemoBurnHint coin={props.coin.label} /> : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <WizardNav
          onPrevious={nav.previous}
          next={
            <button type="submit" className="btn btn-primary" disabled={check.isPending} aria-busy={check.isPending || undefined}>
              {check.isPending ? 'Checking…' : 'Check burn'}
            </button>
          }
        />
      </form>
    </GuideStepView>
  );
}

/**
 * The demo only (the coin runs on the simulator): no real burn can be checked there, so
 * the field says which IDs the simulated chain knows as burns, with one to paste.
 */
function DemoBurnHint({ coin }: { coin: string }) {
  const [example] = useState(() => {
    const bytes = crypto.getRandomValues(new Uint8Array(30));
    return SIMULATED_BURN_PREFIX + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  });
  return (
    <>
      This demo runs {coin} on a simulated chain: it knows a burn made a day ago for any transaction ID of 64
      characters (0-9, a-f) that starts with {SIMULATED_BURN_PREFIX}, for example <code>{example}</code>
    </>
  );
}

function CollateralStep({ props, steps, burn }: { props: WizardProps; steps: ReturnType<typeof guideSteps>; burn: Burn }) {
  const [txid, setTxid] = useState('');
  const deploy = useDeploy(props.coin, props.plan, (r) => props.onDeployed(r.server_id));
  const nav = stepNav(props);

  function submit(e: FormEvent) {
    e.preventDefault();
    void deploy.send({ txid, burntxid: burn.txid, burn_output_id: burn.outputId });
  }

  return (
    <GuideStepView step={steps[COLLATERAL_STEP - 1]!} number={COLLATERAL_STEP} total={steps.length}>
      <p className="small muted">
        Burn transaction: <code>{burn.txid}</code>
      </p>
      <form onSubmit={submit} noValidate className="guide-form">
        {deploy.error && <Alert kind="error">{deploy.error}</Alert>}
        {deploy.errors.burntxid && <Alert kind="error">{deploy.errors.burntxid}</Alert>}
        <DeployTextField deploy={deploy} field="txid" label="Transaction ID" value={txid} onValueChange={setTxid} />
        <DeployNav onPrevious={nav.previous} pending={deploy.pending} />
      </form>
    </GuideStepView>
  );
}
