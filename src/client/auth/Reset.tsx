import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Redirect, useLocation, useSearchParams } from 'wouter';
import { resetForm } from '../../shared/schemas/auth';
import { MutationAlerts } from '../ui/Alert';
import { PasswordField } from '../ui/Field';
import { AuthCard } from '../site/SiteLayout';
import { PageLoading } from '../ui/Spinner';
import { check, withLabel, type FieldErrors } from '../ui/forms';
import { trpc } from '../app/trpc';
import './auth.css';

const REDIRECT_DELAY_MS = 200;

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
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
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

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (reset.isPending || reset.isSuccess) return;
    const result = check(resetForm, { password, confirm });
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    try {
      await reset.mutateAsync({ token, password: result.data.password });
      timer.current = setTimeout(() => navigate('/login', { replace: true }), REDIRECT_DELAY_MS);
    } catch {
      // shown from reset.error below
    }
  }

  return (
    <AuthCard title="Choose a new password">
      <MutationAlerts mutation={reset} />
      <form onSubmit={submit} noValidate>
        <PasswordField
          label="New password"
          value={password}
          onValueChange={setPassword}
          error={withLabel('New password', errors.password)}
          hint="At least 6 characters."
          autoComplete="new-password"
          autoFocus
        />
        <PasswordField
          label="Confirm new password"
          value={confirm}
          onValueChange={setConfirm}
          error={withLabel('Confirm new password', errors.confirm)}
          autoComplete="new-password"
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={reset.isPending || reset.isSuccess}>
          {reset.isPending ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </AuthCard>
  );
}
