import type { ReactNode } from 'react';

type Kind = 'error' | 'success' | 'info' | 'warning';

/** A message box. Errors are announced at once (role alert); the rest politely. */
export function Alert({ kind, children }: { kind: Kind; children: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** The red alert of the login and register forms: "Error! <server message>". */
export function ErrorAlert({ message }: { message: string }) {
  return (
    <Alert kind="error">
      <strong>Error!</strong> {message}
    </Alert>
  );
}
