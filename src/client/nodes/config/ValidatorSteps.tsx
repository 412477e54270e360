import { useState } from 'react';
import { coinWords } from '../../../shared/families';
import { exitValidatorInput, type MasternodeDetail } from '../../../shared/schemas/nodes';
import { trpc } from '../../app/trpc';
import { CopyButton } from '../../ui/CopyButton';
import { DetailsCard } from '../../ui/DetailsCard';
import { MutationAlerts } from '../../ui/Alert';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useForm } from '../../ui/useForm';
import { useToasts } from '../../ui/Toasts';
import { activationState, canExit } from '../validatorState';

const pubkeyOf = (node: MasternodeDetail) => node.setup.fields.find((f) => f.label === 'Validator pubkey')?.value;

/**
 * A validator's way onto and off its beacon chain: its state there as the beacon node
 * reports it; until its deposit is seen, the deposit step (the launchpad of its network);
 * once active, the voluntary exit, sent only after the owner confirms.
 */
export function ValidatorSteps({ node }: { node: MasternodeDetail }) {
  const pubkey = pubkeyOf(node);
  return (
    <>
      <DetailsCard
        title="Beacon chain"
        rows={[
          {
            label: 'Activation status',
            value: activationState(node.status, node.status_on_network),
            testId: 'activation-status',
          },
        ]}
      />
      {node.status === 'start required' && !node.status_on_network && <DepositStep node={node} pubkey={pubkey} />}
      {canExit(node.status_on_network) && <ExitStep node={node} />}
    </>
  );
}

function DepositStep({ node, pubkey }: { node: MasternodeDetail; pubkey: string | undefined }) {
  const { site } = coinWords(node.currency).deposit;
  const amount = `${node.collateral.toLocaleString('en-US')} ${node.currency_data.ticker}`;
  return (
    <section className="card config-view" aria-labelledby="deposit-step-title" data-testid="deposit-step">
      <h2 id="deposit-step-title">Deposit step</h2>
      <p>
        Your validator runs and waits for its deposit: the beacon chain does not know this key until the deposit of{' '}
        {amount} for it is made.
      </p>
      <ol className="deposit-steps">
        <li>
          Take the <code>deposit_data-*.json</code> file the staking deposit tool wrote with this validator&apos;s
          keystore. Its <code>pubkey</code> must be this validator&apos;s:
          {pubkey ? (
            <span className="copy-line">
              <code>{pubkey}</code> <CopyButton text={pubkey} label="Copy pubkey" />
            </span>
          ) : null}
        </li>
        <li>
          Upload it at the official launchpad of the network,{' '}
          <a href={site} target="_blank" rel="noreferrer noopener">
            {site.replace(/^https:\/\//, '')}
          </a>
          , and send {amount} from your own wallet as it asks.
        </li>
        <li>
          The beacon chain sees a deposit some hours after it is sent; the validator then waits in the activation queue.
          This page follows it: the activation status above changes to pending, then active.
        </li>
      </ol>
      {node.simulated && <SimulatedDeposit node={node} />}
    </section>
  );
}

/** Demo: a simulated chain takes no real deposit, so the customer makes the simulated one here. */
function SimulatedDeposit({ node }: { node: MasternodeDetail }) {
  const deposit = trpc.nodes.simulate_deposit.useMutation();
  return (
    <div className="simulated-deposit">
      <p className="muted">
        This validator is simulated: no real deposit can reach its beacon chain. Simulate the deposit to see the next
        steps.
      </p>
      <MutationAlerts mutation={deposit} />
      <button
        type="button"
        className="btn btn-secondary"
        disabled={deposit.isPending || deposit.isSuccess}
        onClick={() => deposit.mutate({ mn: node.mn_id })}
      >
        {deposit.isPending ? 'Simulating…' : 'Simulate the deposit'}
      </button>
    </div>
  );
}

function ExitStep({ node }: { node: MasternodeDetail }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card config-view" aria-labelledby="exit-step-title">
      <h2 id="exit-step-title">Exit the validator</h2>
      <p className="muted">
        A voluntary exit takes the validator out of the active set for good: its validator client signs the exit and its
        beacon node sends it to the network. The stake is then withdrawn to the withdrawal address of its deposit.
      </p>
      <button type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
        Exit validator…
      </button>
      {open && <ExitDialog node={node} onClose={() => setOpen(false)} />}
    </section>
  );
}

function ExitDialog({ node, onClose }: { node: MasternodeDetail; onClose: () => void }) {
  const exit = trpc.nodes.exit_validator.useMutation();
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const form = useForm({
    schema: exitValidatorInput,
    initial: { confirm: '' },
    toInput: (v) => ({ mn: node.mn_id, confirm: v.confirm === 'yes' }),
    submit: (data) => exit.mutateAsync(data),
    successMessage: () => null,
    onSuccess: (res) => {
      toasts.show(res.message, { kind: 'success', sticky: true, closeLabel: 'OK' });
      void utils.nodes.get_masternode.invalidate({ masternode: node.mn_id });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title="Exit this validator?"
      effect="The exit cannot be undone: once it is sent, this key never validates again. Keep the node running until its status shows it exited, or it misses duties and loses a little meanwhile."
      confirmLabel="Send the signed exit"
      busyLabel="Sending…"
      danger
      form={form}
      onCancel={onClose}
      onConfirm={form.onSubmit}
    >
      <label className="confirm-check">
        <input
          type="checkbox"
          checked={form.values.confirm === 'yes'}
          aria-invalid={form.errors.confirm ? true : undefined}
          onChange={(e) => form.setValues({ confirm: e.target.checked ? 'yes' : '' })}
        />{' '}
        I understand that the exit cannot be undone.
      </label>
      {form.errors.confirm && (
        <p className="field-error" role="alert">
          {form.errors.confirm}
        </p>
      )}
    </ConfirmDialog>
  );
}
