import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '../app/errors';
import { Alert } from './Alert';
import { Modal } from './Modal';

export type ConfirmProps = {
  title: string;
  /** The sentence that names what the action does, with the real names and numbers. */
  effect: ReactNode;
  /** What the action needs besides (a warning, a reason, a checkbox), under the sentence. */
  children?: ReactNode;
  confirmLabel: string;
  /** The confirm button's words while the action runs ("Deleting…"). */
  busyLabel: string;
  /** Red: the action destroys something, moves money or stops new business. */
  danger?: boolean;
  /**
   * Runs the action. The dialog shows it busy until this settles; a throw is said inside
   * the dialog, which stays open for another try or Cancel. On success the caller closes it.
   */
  onConfirm: () => Promise<unknown>;
  onCancel: () => void;
  /**
   * A required choice is missing: the confirm button looks disabled and does nothing,
   * so the customer still reads why (a truly disabled button cannot be focused).
   */
  incomplete?: boolean;
  /**
   * For an action that runs through a form (useForm): its pending state and its one error
   * take over from the dialog's own, so the form's field checks keep their words.
   */
  form?: { pending: boolean; error: string | null };
  /** A bold word before the error ("Error!"), where the spec asks for it. */
  errorTitle?: string;
};

/**
 * The one way the app asks before an action that cannot simply be taken back: the
 * effect in a sentence, Cancel, and a confirm button that shows the action running.
 * The body is a form, so Enter in a field confirms as the button does.
 */
export function ConfirmDialog(p: ConfirmProps) {
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const pending = p.form ? p.form.pending : busy;
  const error = p.form ? p.form.error : failed;

  async function confirm(e: FormEvent) {
    e.preventDefault();
    // A second click while the action runs must not run it twice.
    if (p.incomplete || pending) return;
    setFailed(null);
    setBusy(true);
    try {
      await p.onConfirm();
    } catch (err) {
      setFailed(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={p.title}
      onClose={p.onCancel}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={p.onCancel}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className={`btn ${p.danger ? 'btn-danger' : 'btn-primary'}${p.incomplete ? ' btn-looks-disabled' : ''}`}
            disabled={pending}
            aria-disabled={p.incomplete ? true : undefined}
          >
            {pending ? p.busyLabel : p.confirmLabel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={confirm} noValidate>
        <p data-testid="confirm-effect">{p.effect}</p>
        {p.children}
        {error && (
          <Alert kind="error">
            {p.errorTitle && <strong>{p.errorTitle}</strong>} {error}
          </Alert>
        )}
      </form>
    </Modal>
  );
}
