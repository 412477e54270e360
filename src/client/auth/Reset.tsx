import { useEffect, useRef } from 'react';
import { Redirect, useLocation, useSearchParams } from 'wouter';
import { resetForm } from '../../shared/schemas/auth';
import { FormAlerts } from '../ui/Alert';
import { PasswordField } from '../ui/Field';
import { AuthCard } from '../layout/SiteLayout';
import { PageLoading } from '../ui/Spinner';
import { useForm } from '../ui/useForm';
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

  if (checkToken.isError) return <Redirect to="/dashboard" replace />;
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
