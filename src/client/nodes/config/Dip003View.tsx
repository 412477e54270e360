import { useId, useState, type FormEvent } from 'react';
import type { MasternodeDetail } from '../../../shared/schemas/nodes';
import { errorMessage } from '../../app/errors';
import { trpc } from '../../app/trpc';
import { Alert } from '../../ui/Alert';
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
  const [output, setOutput] = useState('');
  const [tried, setTried] = useState(false);
  const utils = trpc.useUtils();
  const submit = trpc.nodes.register_submit.useMutation({
    onSuccess: () => void utils.nodes.get_masternode.invalidate({ masternode: node.mn_id }),
  });
  const id = useId();
  const empty = tried && !output.trim();
  const problem = empty ? 'Paste the result and the signature.' : submit.isError ? errorMessage(submit.error) : null;

  function send(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (!output.trim() || submit.isPending) return;
    submit.mutate({ mn: node.mn_id, output: output.trim() });
  }

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
      <form onSubmit={send} className={`field${problem ? ' field-invalid' : ''}`} noValidate>
        <label htmlFor={id}>Prepared transaction and signature</label>
        <textarea
          id={id}
          rows={5}
          value={output}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(e) => {
            setOutput(e.target.value);
            if (submit.isError) submit.reset();
          }}
        />
        {problem && (
          <p id={`${id}-error`} className="field-error">
            {problem}
          </p>
        )}
        {submit.isSuccess && <Alert kind="success">{submit.data.message}</Alert>}
        <button type="submit" className="btn btn-primary" aria-disabled={submit.isPending ? true : undefined}>
          {submit.isPending ? 'Submitting…' : 'Start node'}
        </button>
      </form>
    </>
  );
}
