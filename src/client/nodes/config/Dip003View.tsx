import { registerSubmitInput, type MasternodeDetail } from '../../../shared/schemas/nodes';
import { trpc } from '../../app/trpc';
import { Alert } from '../../ui/Alert';
import { TextAreaField } from '../../ui/Field';
import { useForm } from '../../ui/useForm';
import { dip003State } from '../configState';
import { Commands, ConfigCard, Congratulations } from './parts';

/**
 * DIP003 (section 4, "Node start view"): `not_active` shows the sign-message start
 * form; active or migrated, the congratulations; anything else, "Attention!". The
 * `started` live event refetches the node, which flips the view.
 */
export function Dip003View({ node }: { node: MasternodeDetail }) {
  const state = dip003State(node.output_text);
  return (
    <ConfigCard title="Start your masternode">
      {state === 'started' && <Congratulations />}
      {state === 'attention' && <Attention label={node.currency_data.label} />}
      {state === 'start' && <StartForm node={node} />}
    </ConfigCard>
  );
}

/**
 * Restricted DIP003 (BITG-type): the registration carries the payee the customer gave
 * at deploy and is sent from their own wallet with the commands shown; the view follows
 * the same three states, without the sign-message form.
 */
export function RestrictedDip003View({ node }: { node: MasternodeDetail }) {
  const state = dip003State(node.output_text);
  return (
    <ConfigCard title="Register your masternode">
      {state === 'started' && <Congratulations />}
      {state === 'attention' && <Attention label={node.currency_data.label} />}
      {state === 'start' && (
        <>
          <p>
            Run these commands in your own {node.currency_data.label} wallet’s console. The transaction needs more than
            15 confirmations; this page updates when the network sees the registration.
          </p>
          {node.setup.commands.length ? (
            <Commands commands={node.setup.commands} />
          ) : (
            <p className="muted">The registration commands are being prepared; check back in a few minutes.</p>
          )}
        </>
      )}
    </ConfigCard>
  );
}

function Attention({ label }: { label: string }) {
  return (
    <Alert kind="warning">
      <strong>Attention!</strong> {label} moved to a new masternode system. This node will stop working: delete it and
      deploy it again.
    </Alert>
  );
}

function StartForm({ node }: { node: MasternodeDetail }) {
  const utils = trpc.useUtils();
  const submit = trpc.nodes.register_submit.useMutation({
    onSuccess: () => void utils.nodes.get_masternode.invalidate({ masternode: node.mn_id }),
  });
  const form = useForm({
    schema: registerSubmitInput,
    initial: { output: '' },
    toInput: (v) => ({ mn: node.mn_id, output: v.output.trim() }),
    submit: (data) => submit.mutateAsync(data),
  });
  // The daemon's refusal belongs to what was pasted: said under the field.
  const field = form.field('output', 'Prepared transaction and signature');

  return (
    <>
      <ol className="config-steps">
        <li>
          Wait until your collateral transaction has more than 15 confirmations (the node shows “Start required”).
        </li>
        <li>
          In your own {node.currency_data.label} wallet’s console, prepare the registration with this node’s operator
          key:
          {node.setup.commands.length ? (
            <Commands commands={node.setup.commands} />
          ) : (
            <p className="muted">The registration command is being prepared; check back in a few minutes.</p>
          )}
        </li>
        <li>
          Sign the message it returns with the collateral address (<code>signmessage</code>), then paste the whole
          result of the prepare step and the signature below.
        </li>
      </ol>
      <form onSubmit={form.onSubmit} noValidate>
        <TextAreaField {...field} error={field.error ?? form.error ?? undefined} rows={5} spellCheck={false} />
        {form.success && <Alert kind="success">{form.success}</Alert>}
        <button type="submit" className="btn btn-primary" aria-disabled={form.pending ? true : undefined}>
          {form.pending ? 'Submitting…' : 'Start node'}
        </button>
      </form>
    </>
  );
}
