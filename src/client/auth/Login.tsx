import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { loginInput } from '../../shared/schemas/auth';
import { useSession } from './auth';
import { Alert, ErrorAlert } from '../ui/Alert';
import { CodeField, PasswordField, TextField } from '../ui/Field';
import { AuthCard } from '../site/SiteLayout';
import { errorMessage } from '../app/errors';
import { check, withLabel, type FieldErrors } from '../ui/forms';
import { safeRedirect } from '../site/site';
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
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const login = trpc.auth.login.useMutation();
  const busy = login.isPending || done !== null;

  // The token is stored as the page leaves: stored earlier, the guest-only guard of
  // /login would move the user on before the success message could be seen.
  function finish(message: string, token: string, qrKey?: string) {
    setDone(message);
    timer.current = setTimeout(() => {
      signIn(token, qrKey);
      navigate(target, { replace: true });
    }, REDIRECT_DELAY_MS);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setError(null);
    const input = step === 'tfa' ? { username, password, tfa: code } : { username, password };
    const checked = check(loginInput, input);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    try {
      const res = await login.mutateAsync(checked.data);
      if (!res.tfa_authenticated || !res.auth_token) {
        setStep('tfa');
        return;
      }
      finish(res.message, res.auth_token, res.qr_key);
    } catch (err) {
      setError(errorMessage(err));
      if (step === 'tfa') {
        // A failed code starts the login over, with nothing left filled in.
        setStep('password');
        setUsername('');
        setPassword('');
        setCode('');
      }
    }
  }

  return (
    <AuthCard title="Log in" subtitle={step === 'tfa' ? 'Enter the 6-digit code from your authenticator app.' : 'Welcome back to Nodekeep.'}>
      {error && <ErrorAlert message={error} />}
      {done && <Alert kind="success">{done}</Alert>}
      <form onSubmit={submit} noValidate>
        {step === 'password' ? (
          <>
            <TextField
              label="Username or email"
              value={username}
              onValueChange={setUsername}
              error={withLabel('Username or email', errors.username)}
              autoComplete="username"
              autoFocus
            />
            <PasswordField
              label="Password"
              value={password}
              onValueChange={setPassword}
              error={withLabel('Password', errors.password)}
              autoComplete="current-password"
            />
            <p className="form-aside">
              <Link href="/recover">Lost password?</Link>
            </p>
          </>
        ) : (
          <CodeField label="2FA code" value={code} onValueChange={setCode} error={withLabel('2FA code', errors.tfa)} autoFocus />
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {login.isPending ? 'Logging in…' : step === 'tfa' ? 'Verify code' : 'Log in'}
        </button>
      </form>
      <p className="muted small center">
        No account yet? <Link href="/register">Register</Link>
      </p>
    </AuthCard>
  );
}
