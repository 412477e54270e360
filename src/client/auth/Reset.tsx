import { useEffect, useRef } from 'react';
import { Redirect, useLocation, useSearchParams } from 'wouter';
import { resetForm } from '../../shared/schemas/auth';
import { Alert, FormAlerts } from '../ui/Alert';
import { PasswordField } from '../ui/Field';
import { AuthCard } from '../layout/SiteLayout';
import { PageLoading } from '../ui/Spinner';
import { useForm } from '../ui/useForm';
import { errorCode, errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import './auth.css';

const REDIRECT_DELAY_MS = 200;
/** The history state /login reads to say the password was changed. */
export const PASSWORD_CHANGED = 'password_changed';

export function Reset() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <Redirect to="/dashboard" replace />;
  return <ResetWithToken token={token} />;
}

function ResetWithToken({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const checkToken = trpc.auth.check_reset_token.useMutation();
  const reset = trpc.auth.reset.useMutation();
  const form = useForm({
    schema: resetForm,
    initial: { password: '', confirm: '' },
    submit: (data) => reset.mutateAsync({ token, password: data.password }),
    onSuccess: () => {
      // The login page says what happened (PASSWORD_CHANGED); the address stays /login.
      timer.current = setTimeout(
        () => navigate('/login', { replace: true, state: { notice: PASSWORD_CHANGED } }),
        REDIRECT_DELAY_MS,
      );
    },
  });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Check the link once, before showing the form (a ref: effects run twice in dev).
  const checked = useRef(false);
  const { mutate: runCheck } = checkToken;
  useEffect(() => {
    if (checked.current) return;
    checked.current = true;
    runCheck({ token });
  }, [runCheck, token]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // A link the server refused (used, expired, mistyped) leads nowhere; any other failure
  // (too many checks from this address, the server unreachable) is said, with a retry.
  if (checkToken.isError && errorCode(checkToken.error) === 'BAD_REQUEST') return <Redirect to="/dashboard" replace />;
  if (checkToken.isError)
    return (
      <AuthCard title="Choose a new password">
        <Alert kind="error">
          Your link could not be checked: {errorMessage(checkToken.error)}{' '}
          <button type="button" className="btn-link" onClick={() => runCheck({ token })}>
            Try again
          </button>
        </Alert>
      </AuthCard>
    );
  if (!checkToken.isSuccess) return <PageLoading label="Checking your link…" />;

  return (
    <AuthCard title="Choose a new password">
      <FormAlerts form={form} />
      <form onSubmit={(e) => (reset.isSuccess ? e.preventDefault() : form.onSubmit(e))} noValidate>
        <PasswordField
          {...form.field('password', 'New password')}
          hint="At least 6 characters."
          autoComplete="new-password"
          autoFocus
        />
        <PasswordField {...form.field('confirm', 'Confirm new password')} autoComplete="new-password" />
        <button type="submit" className="btn btn-primary btn-block" disabled={form.pending || reset.isSuccess}>
          {form.pending ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </AuthCard>
  );
}
