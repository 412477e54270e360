import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { DELETE_REASON_MAX, DELETE_REASONS, deleteMasternodeInput } from '../../shared/schemas/nodes';
import { useForm } from '../ui/useForm';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Modal } from '../ui/Modal';
import { ContactLink } from '../layout/support';
import { CHAT_HOURS, chatOpen, DELETE_REDIRECT_MS, deleteReasonText, OTHER, reasonHint } from './deleteReasons';

type Props = {
  mn: string;
  name: string;
  /** EVM validators: stopped first, and their slashing-protection file is offered afterwards. */
  validator: boolean;
  onClose: () => void;
  /** The node is gone: the page must not treat its own refetch failing as an error. */
  /** The delete is under way (true) or failed (false): the page stops reading the node meanwhile. */
  onDeleting: (underWay: boolean) => void;
};

/**
 * The delete dialog (deployment-and-nodes.md sections 4 and 5, "Delete"): a reason is
 * required (the button looks disabled and does nothing without one), Other takes the
 * customer's own words, some reasons show a hint. A failure shows the server's message
 * under "Error!"; a success goes to the portfolio after 300 ms, or for a validator
 * first offers its slashing-protection file.
 */
export function DeleteNodeDialog({ mn, name, validator, onClose, onDeleting }: Props) {
  const [slashing, setSlashing] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const remove = trpc.nodes.delete_masternode.useMutation({
    // From the click on: the server marks the node deleted before it answers (a validator's
    // answer waits for its stop), and a refetch meanwhile must not take the page away,
    // or the slashing-protection file in the answer is never shown.
    onMutate() {
      onDeleting(true);
    },
    onError() {
      onDeleting(false);
    },
    onSuccess(data) {
      void utils.nodes.get_masternodes.invalidate();
      if (data.slashing_protection) setSlashing(data.slashing_protection);
    },
  });
  const form = useForm({
    schema: deleteMasternodeInput,
    initial: { reason: '', other: '' },
    toInput: (v) => ({ mn, reason: deleteReasonText(v.reason, v.other) }),
    submit: (data) => remove.mutateAsync(data),
    // The success line is the dialog's own (below), shown until the page moves on.
    successMessage: () => null,
  });
  const { reason, other } = form.values;
  const selectId = useId();
  const otherId = useId();
  const text = deleteReasonText(reason, other);
  const done = remove.isSuccess && slashing === null;

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => navigate('/dashboard/portfolio'), DELETE_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [done, navigate]);

  if (slashing !== null)
    return <SlashingDownload mn={mn} name={name} json={slashing} onClose={() => navigate('/dashboard/portfolio')} />;

  return (
    <ConfirmDialog
      title="Delete masternode"
      effect={
        <>
          You are about to delete <strong>{name}</strong>. Deletion cannot be undone: the node is destroyed with its
          data, and the daily charge stops.
        </>
      }
      confirmLabel="Delete node"
      busyLabel="Deleting…"
      danger
      // Without a reason the button only looks disabled: it does nothing (the spec's rule).
      incomplete={!text || remove.isSuccess}
      form={form}
      errorTitle="Error!"
      onCancel={onClose}
      onConfirm={form.onSubmit}
    >
      {validator && (
        <Alert kind="warning">
          The validator is stopped before it is deleted. Once it is deleted you can download its slashing-protection
          file (EIP-3076 interchange format): import it into the client that runs the key next, so it never signs twice.
        </Alert>
      )}
      <div className="field">
        <label htmlFor={selectId}>Reason</label>
        <select
          id={selectId}
          value={reason}
          required
          onChange={(e) => form.setValues({ ...form.values, reason: e.target.value })}
        >
          <option value="" disabled>
            Choose a reason
          </option>
          {DELETE_REASONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      {reason === OTHER && (
        <div className="field delete-other">
          <label htmlFor={otherId}>Your reason</label>
          <textarea
            id={otherId}
            value={other}
            maxLength={DELETE_REASON_MAX}
            rows={3}
            onChange={(e) => form.setValues({ ...form.values, other: e.target.value })}
            aria-describedby={`${otherId}-count`}
          />
          <p id={`${otherId}-count`} className="field-hint">
            {other.length} / {DELETE_REASON_MAX}
          </p>
        </div>
      )}
      <ReasonHint reason={reason} name={name} />
      {done && <Alert kind="success">{remove.data?.message}</Alert>}
    </ConfirmDialog>
  );
}

function ReasonHint({ reason, name }: { reason: string; name: string }) {
  const hint = reasonHint(reason);
  if (hint === 'rewards') {
    return (
      <p className="alert alert-info reason-hint" data-testid="reason-hint">
        Rewards take time: the first one often comes after about 3 times the coin’s average reward time (Horizen: 1
        week, then every 24 hours). See <Link href="/faq">the FAQ</Link>.
      </p>
    );
  }
  if (hint === 'chat') {
    return (
      <p className="alert alert-info reason-hint" data-testid="reason-hint">
        We would like to help before you delete it: our live chat answers every day from {CHAT_HOURS.from}:00 to{' '}
        {CHAT_HOURS.to}:00 UTC
        {chatOpen(new Date()) ? ' and is open now.' : '.'}{' '}
        <ContactLink optional subject={`Node ${name}`}>
          Write to support
        </ContactLink>
      </p>
    );
  }
  return null;
}

/** After a validator's delete: its EIP-3076 file, downloaded from memory (never stored in the browser). */
function SlashingDownload({
  mn,
  name,
  json,
  onClose,
}: {
  mn: string;
  name: string;
  json: string;
  onClose: () => void;
}) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [json]);
  return (
    <Modal
      title="Validator deleted"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Go to portfolio
        </button>
      }
    >
      <p>
        <strong>{name}</strong> was stopped and deleted. Download its slashing-protection file and import it into the
        client that runs the key next, so the key never signs twice.
      </p>
      {href && (
        <a className="btn btn-secondary" href={href} download={`slashing-protection-${mn}.json`}>
          Download slashing-protection file
        </a>
      )}
    </Modal>
  );
}
