import { useId, useState, type FormEvent } from 'react';
import type { MasternodeDetail } from '../../../shared/schemas/nodes';
import { errorField, errorMessage, isUnreachable, serverFieldErrors } from '../../app/errors';
import { trpc } from '../../app/trpc';
import { DetailsCard } from '../../ui/DetailsCard';
import { MISSING } from '../../ui/display';
import { useToasts } from '../../ui/Toasts';
import { ValidatorSteps } from './ValidatorSteps';
import { FEE_FIELDS, feeRecipientProblem, NETWORK_FAILURE } from '../configState';

type ServerError = { message: string; underField: boolean };

/** Where a failed fee update's message goes (section 5, "EVM fee recipient"). */
function serverError(err: unknown): ServerError {
  if (isUnreachable(err)) return { message: NETWORK_FAILURE, underField: false };
  const fieldErrors = serverFieldErrors(err);
  if (fieldErrors.fee_recipient) return { message: fieldErrors.fee_recipient, underField: true };
  const field = errorField(err);
  return { message: errorMessage(err), underField: field !== undefined && FEE_FIELDS.has(field) };
}

/**
 * EVM validator: the fee recipient in force, the withdrawal address, and the form for a
 * new fee recipient. Submit is ignored while a request runs or an error shows; typing
 * clears the server's error. Success: a toast that stays until OK, and the shown fee
 * recipient changes at once.
 */
// Not on useForm: section 5 fixes where each refusal goes (the address's under the field, the
// others by the button, a lost connection in its own words) and that a shown refusal holds
// submit until the customer types; the checks are the shared ones (configState).
export function ValidatorView({ node }: { node: MasternodeDetail }) {
  const { setup } = node;
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<ServerError | null>(null);
  const toasts = useToasts();
  const utils = trpc.useUtils();
  const update = trpc.nodes.update_validator_fee.useMutation();
  const id = useId();

  const problem = feeRecipientProblem(value, tried);
  const fieldMessage = problem ?? (server?.underField ? server.message : null);
  const buttonMessage = server && !server.underField ? server.message : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (update.isPending || server || feeRecipientProblem(value, true)) return;
    const fee = value.trim();
    update.mutate(
      { mn: node.mn_id, fee_recipient: fee, change_for: 'only_this' },
      {
        onSuccess(data) {
          utils.nodes.get_masternode.setData({ masternode: node.mn_id }, (old) =>
            old ? { ...old, data: { ...old.data, setup: { ...old.data.setup, fee_recipient: fee } } } : old,
          );
          toasts.show(data.message, { kind: 'success', sticky: true, closeLabel: 'OK' });
          setValue('');
          setTried(false);
        },
        onError: (err) => setServer(serverError(err)),
      },
    );
  }

  return (
    <>
      <ValidatorSteps node={node} />
      <DetailsCard
        title="Validator"
        rows={[
          {
            label: 'Current fee recipient',
            value: setup.fee_recipient ? <code>{setup.fee_recipient}</code> : MISSING,
            testId: 'fee-recipient',
          },
          {
            label: 'Withdrawal address',
            value: setup.withdrawal_address ? <code>{setup.withdrawal_address}</code> : MISSING,
          },
        ]}
      />
      <section className="card config-view" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Change the fee recipient</h2>
        <p className="muted">
          Block proposal fees (priority fees and MEV) go to this address from the next block the validator proposes.
        </p>
        <form onSubmit={submit} noValidate>
          <div className={`field${fieldMessage ? ' field-invalid' : ''}`}>
            <label htmlFor={id}>New fee recipient</label>
            <input
              id={id}
              value={value}
              spellCheck={false}
              autoComplete="off"
              placeholder="0x…"
              aria-invalid={fieldMessage ? true : undefined}
              aria-describedby={fieldMessage ? `${id}-error` : undefined}
              onChange={(e) => {
                setValue(e.target.value);
                setServer(null);
              }}
            />
            {fieldMessage && (
              <p id={`${id}-error`} className="field-error">
                {fieldMessage}
              </p>
            )}
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" aria-disabled={update.isPending ? true : undefined}>
              {update.isPending ? 'Saving…' : 'Change fee recipient'}
            </button>
            {buttonMessage && (
              <span className="field-error" role="alert">
                {buttonMessage}
              </span>
            )}
          </div>
        </form>
      </section>
    </>
  );
}
