import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { loginInput } from '../../shared/schemas/auth';
import { useSession } from '../session/session';
import { Alert, FormAlerts } from '../ui/Alert';
import { PASSWORD_CHANGED } from './Reset';
import { CodeField, PasswordField, TextField } from '../ui/Field';
import { AuthCard } from '../layout/SiteLayout';
import { useForm } from '../ui/useForm';
import { safeRedirect } from '../app/site';
import { deviceStore } from '../app/storage';
import { trpc } from '../app/trpc';
import './auth.css';

/** The spec's pause between "logged in" and the redirect, so the success is seen. */
const REDIRECT_DELAY_MS = 200;

export function Login() {
  const { signIn } = useSession();
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect')) ?? '/dashboard';

  const [step, setStep] = useState<'password' | 'tfa'>('password');
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const login = trpc.auth.login.useMutation();
  const form = useForm({
    schema: loginInput,
    initial: { username: '', password: '', tfa: '' },
    toInput: ({ username, password, tfa }) => {
      const device = deviceStore.get() ?? undefined;
      return step === 'tfa' ? { username, password, tfa, device } : { username, password, device };
    },
    submit: (data) => login.mutateAsync(data),
    // The password step of a 2FA account answers without a token: no success yet.
    successMessage: (res) => (res.tfa_authenticated && res.auth_token ? res.message : null),
    onSuccess: (res) => {
      if (res.device_token) deviceStore.set(res.device_token);
      if (!res.tfa_authenticated || !res.auth_token) return setStep('tfa');
      finish(res.auth_token, res.qr_key);
    },
    onError: (_err, f) => {
      if (step !== 'tfa') return;
      // A failed code starts the login over, with nothing left filled in.
      setStep('password');
      f.setValues({ username: '', password: '', tfa: '' });
    },
  });
  const busy = form.pending || done;
  // Arrived from a finished password reset (Reset.tsx): said until the next login attempt.
  const [fromReset] = useState(() => (window.history.state as { notice?: string } | null)?.notice === PASSWORD_CHANGED);

  // The token is stored as the page leaves: stored earlier, the guest-only guard of
  // /login would move the user on before the success message could be seen.
  function finish(token: string, qrKey?: string) {
    setDone(true);
    timer.current = setTimeout(() => {
      signIn(token, qrKey);
      navigate(target, { replace: true });
    }, REDIRECT_DELAY_MS);
  }

  return (
    <AuthCard
      title="Log in"
      subtitle={step === 'tfa' ? 'Enter the 6-digit code from your authenticator app.' : 'Welcome back to Nodekeep.'}
    >
      {fromReset && !form.pending && !login.isError && !login.isSuccess && (
        <Alert kind="success">Your password was changed. Log in with your new password.</Alert>
      )}
      <FormAlerts form={form} title="Error!" />
      <form onSubmit={(e) => (busy ? e.preventDefault() : form.onSubmit(e))} noValidate>
        {step === 'password' ? (
          <>
            <TextField {...form.field('username', 'Username or email')} autoComplete="username" autoFocus />
            <PasswordField {...form.field('password', 'Password')} autoComplete="current-password" />
            <p className="form-aside">
              <Link href="/recover">Lost password?</Link>
            </p>
          </>
        ) : (
          <CodeField {...form.field('tfa', '2FA code')} autoFocus />
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {form.pending ? 'Logging in…' : step === 'tfa' ? 'Verify code' : 'Log in'}
        </button>
      </form>
      <p className="muted small center">
        No account yet? <Link href="/register">Register</Link>
      </p>
    </AuthCard>
  );
}
