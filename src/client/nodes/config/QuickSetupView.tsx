import { useId, useState, type FormEvent } from 'react';
import type { MasternodeDetail } from '../../../shared/schemas/nodes';
import { errorMessage } from '../../app/errors';
import { trpc } from '../../app/trpc';
import { Alert } from '../../ui/Alert';
import { TextField } from '../../ui/Field';
import { FEE_ADDRESS_LENGTH, feeAddressComplete, quickSetupDone, withFeeAddress } from '../configState';
import { Commands, ConfigCard, Congratulations } from './parts';

/**
 * Quick-setup coins (smartnodes): the customer names a fee address of their wallet (34
 * characters, holding at least 0.001 of the coin); only then do the command steps show,
 * with that address filled in, and the form that sends their result (quick_setup).
 */
export function QuickSetupView({ node }: { node: MasternodeDetail }) {
  const done = quickSetupDone(node.status, node.output_text);
  const [fee, setFee] = useState('');
  const ticker = node.currency_data.ticker;
  return (
    <ConfigCard title="Quick setup">
      {done ? (
        <Congratulations />
      ) : node.setup.starting ? (
        <Alert kind="info">
          <span className="spinner" aria-hidden="true" /> Your node is restarting with its key. This page follows it and
          shows the result, usually within a minute; if the key is not taken, a notification says why and you can send
          it again.
        </Alert>
      ) : (
        <>
          <TextField
            label="Fee address"
            value={fee}
            onValueChange={setFee}
            spellCheck={false}
            hint={`An address of your wallet (${FEE_ADDRESS_LENGTH} characters) holding at least 0.001 ${ticker} for the registration fee.`}
          />
          {feeAddressComplete(fee) && (
            <>
              <p>Run in your own wallet’s console:</p>
              <Commands commands={node.setup.commands.map((c) => ({ ...c, text: withFeeAddress(c.text, fee) }))} />
              <ResultForm node={node} />
            </>
          )}
        </>
      )}
    </ConfigCard>
  );
}

function ResultForm({ node }: { node: MasternodeDetail }) {
  const [secret, setSecret] = useState('');
  const utils = trpc.useUtils();
  const send = trpc.nodes.quick_setup.useMutation({
    onSuccess: () => void utils.nodes.get_masternode.invalidate({ masternode: node.mn_id }),
  });
  const id = useId();
  const problem = send.isError ? errorMessage(send.error) : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!secret.trim() || send.isPending) return;
    send.mutate({ mn: node.mn_id, secret: secret.trim() });
  }
  return (
    <form onSubmit={submit} className={`field${problem ? ' field-invalid' : ''}`} noValidate>
      <label htmlFor={id}>Quick setup result</label>
      <textarea
        id={id}
        rows={4}
        value={secret}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => {
          setSecret(e.target.value);
          if (send.isError) send.reset();
        }}
      />
      {problem && <p className="field-error">{problem}</p>}
      {send.isSuccess && <Alert kind="success">{send.data.message}</Alert>}
      <button
        type="submit"
        className={`btn btn-primary${secret.trim() ? '' : ' btn-looks-disabled'}`}
        aria-disabled={!secret.trim() || send.isPending ? true : undefined}
      >
        {send.isPending ? 'Sending…' : 'Start node'}
      </button>
    </form>
  );
}
