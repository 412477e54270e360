import { useState } from 'react';
import { quickSetupInput, type MasternodeDetail } from '../../../shared/schemas/nodes';
import { trpc } from '../../app/trpc';
import { Alert } from '../../ui/Alert';
import { TextAreaField, TextField } from '../../ui/Field';
import { useForm } from '../../ui/useForm';
import { FEE_ADDRESS_LENGTH, feeAddressProblem, feeAddressReady, quickSetupDone, withFeeAddress } from '../configState';
import { Commands, ConfigCard, Congratulations } from './parts';

/**
 * Quick-setup coins (smartnodes): the customer names a fee address of their wallet (34
 * characters, holding at least 0.001 of the coin, checked as the coin's own address);
 * only then do the command steps show, with that address and the node's ip:port filled
 * in, and the form that sends their result (quick_setup).
 */
export function QuickSetupView({ node }: { node: MasternodeDetail }) {
  const done = quickSetupDone(node.status, node.output_text);
  const [fee, setFee] = useState('');
  const ticker = node.currency_data.ticker;
  const coin = { id: node.currency, label: node.currency_data.label };
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
            autoComplete="off"
            error={feeAddressProblem(coin, fee) ?? undefined}
            hint={`An address of your wallet (${FEE_ADDRESS_LENGTH} characters) holding at least 0.001 ${ticker} for the registration fee.`}
          />
          {feeAddressReady(coin, fee) && (
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
  const utils = trpc.useUtils();
  const send = trpc.nodes.quick_setup.useMutation({
    onSuccess: () => void utils.nodes.get_masternode.invalidate({ masternode: node.mn_id }),
  });
  const form = useForm({
    schema: quickSetupInput,
    initial: { secret: '' },
    toInput: (v) => ({ mn: node.mn_id, secret: v.secret.trim() }),
    submit: (data) => send.mutateAsync(data),
  });
  const secret = form.values.secret;
  // The daemon's refusal belongs to what was pasted: said under the field.
  const field = form.field('secret', 'Quick setup result');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        // Empty: the button only looks disabled, and does nothing.
        if (secret.trim()) void form.onSubmit();
      }}
      noValidate
    >
      <TextAreaField
        {...field}
        error={field.error ?? form.error ?? undefined}
        hint="Paste the smartnodeblsprivkey=… line of the file quick_setup wrote."
        rows={4}
        spellCheck={false}
      />
      {form.success && <Alert kind="success">{form.success}</Alert>}
      <button
        type="submit"
        className={`btn btn-primary${secret.trim() ? '' : ' btn-looks-disabled'}`}
        aria-disabled={!secret.trim() || form.pending ? true : undefined}
      >
        {form.pending ? 'Sending…' : 'Start node'}
      </button>
    </form>
  );
}
