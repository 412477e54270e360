import { useId, useRef, useState, type FormEvent } from 'react';
import type { DeployValidatorsOutput } from '../../../shared/schemas/deploy';
import { errorField, errorMessage, isUnreachable } from '../../app/errors';
import { trpc } from '../../app/trpc';
import { Alert } from '../../ui/Alert';
import { PasswordField, TextField } from '../../ui/Field';
import { DeployNav, GuideStepView } from '../GuideStep';
import type { GuideStep } from '../guide';
import { serverErrorField } from '../serverErrors';
import { NETWORK_FAILURE, validatorProblems, type ValidatorProblems } from '../validatorForm';
import { stepNav } from './nav';
import type { WizardProps } from './types';

type Field = keyof ValidatorProblems;

/**
 * Step 4: the keystore files (.json, up to 10), their one password and the fee
 * recipient. The browser reads each file's text and sends them through tRPC (scripts
 * use the multipart REST path). A server error naming a field shows under it until
 * that field is edited.
 */
export function ValidatorUpload({ props, steps, onResult }: { props: WizardProps; steps: GuideStep[]; onResult: (r: DeployValidatorsOutput) => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [password, setPassword] = useState('');
  const [feeRecipient, setFeeRecipient] = useState('');
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<ValidatorProblems>({});
  const [error, setError] = useState<string | null>(null);
  const deploy = trpc.deploy.deploy_validators.useMutation();
  const inFlight = useRef(false);
  const fileId = useId();
  const nav = stepNav(props);

  const problems = validatorProblems({ files: files.length, password, feeRecipient, tried });
  const shown = (f: Field) => serverErrors[f] ?? problems[f];
  const clear = (f: Field) => setServerErrors((e) => (e[f] ? { ...e, [f]: undefined } : e));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (inFlight.current) return;
    setTried(true);
    setError(null);
    if (Object.keys(validatorProblems({ files: files.length, password, feeRecipient, tried: true })).length > 0) return;
    inFlight.current = true;
    try {
      const keystores = await Promise.all(files.map(async (f) => ({ name: f.name, text: await f.text() })));
      onResult(await deploy.mutateAsync({ currency: props.coin.id, package: props.plan, password, fee_recipient: feeRecipient.trim(), keystores }));
    } catch (err) {
      if (isUnreachable(err)) return setError(NETWORK_FAILURE);
      const message = errorMessage(err);
      const field = serverErrorField('validator', message, errorField(err));
      if (field === 'password' || field === 'fee_recipient' || field === 'keystores') setServerErrors({ [field]: message });
      else setError(message);
    } finally {
      inFlight.current = false;
    }
  }

  const fileError = shown('keystores');
  return (
    <GuideStepView step={steps[3]!} number={4} total={steps.length}>
      <form onSubmit={(e) => void submit(e)} noValidate className="guide-form">
        {error && <Alert kind="error">{error}</Alert>}
        <div className={`field${fileError ? ' field-invalid' : ''}`}>
          <label htmlFor={fileId}>Keystore files</label>
          <input
            id={fileId}
            type="file"
            accept=".json,application/json"
            multiple
            onChange={(e) => {
              setFiles(Array.from(e.target.files ?? []));
              clear('keystores');
            }}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${fileId}-note`}
          />
          <p id={`${fileId}-note`} className={fileError ? 'field-error' : 'field-hint'}>
            {fileError ?? (files.length ? `${files.length} file${files.length === 1 ? '' : 's'} selected` : 'The keystore-m_*.json files, up to 10.')}
          </p>
        </div>
        <PasswordField
          label="Keystore password"
          value={password}
          onValueChange={(v) => {
            setPassword(v);
            clear('password');
          }}
          error={shown('password')}
          hint="The one password all these keystores share."
          autoComplete="off"
        />
        <TextField
          label="Fee recipient"
          value={feeRecipient}
          onValueChange={(v) => {
            setFeeRecipient(v);
            clear('fee_recipient');
          }}
          error={shown('fee_recipient')}
          hint="The 0x address that receives your priority fees."
          autoComplete="off"
          spellCheck={false}
        />
        <DeployNav onPrevious={nav.previous} pending={deploy.isPending} busyLabel="Uploading…" />
      </form>
    </GuideStepView>
  );
}
