import type { ReactNode } from 'react';
import { errorMessage } from '../app/errors';

type Kind = 'error' | 'success' | 'info' | 'warning';

/** A message box. Errors are announced at once (role alert); the rest politely. */
export function Alert({ kind, children }: { kind: Kind; children: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** How a form's mutation ended: its error, or the server's success message (one of them at most). */
export function MutationAlerts({
  mutation,
}: {
  mutation: { isError: boolean; error: unknown; isSuccess: boolean; data?: { message: string } };
}) {
  return (
    <>
      {mutation.isError && <Alert kind="error">{errorMessage(mutation.error)}</Alert>}
      {mutation.isSuccess && <Alert kind="success">{mutation.data?.message}</Alert>}
    </>
  );
}

/**
 * A form's one error and one success message (see useForm). `title` puts a bold word
 * before the error, as the login and register forms do ("Error! <message>").
 */
export function FormAlerts({
  form,
  title,
}: {
  form: { error: string | null; success: string | null };
  title?: string;
}) {
  return (
    <>
      {form.error && (
        <Alert kind="error">
          {title && <strong>{title}</strong>} {form.error}
        </Alert>
      )}
      {form.success && <Alert kind="success">{form.success}</Alert>}
    </>
  );
}
