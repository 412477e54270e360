import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { registerForm } from '../../shared/schemas/auth';
import { ErrorAlert } from '../ui/Alert';
import { PasswordField, TextField } from '../ui/Field';
import { AuthCard } from '../site/SiteLayout';
import { errorMessage, serverFieldErrors } from '../app/errors';
import { check, withLabel, type FieldErrors } from '../ui/forms';
import { referralStore } from '../app/storage';
import { trpc } from '../app/trpc';
import './auth.css';

export function Register() {
  const [params] = useSearchParams();
  const [username, setUsername] = useState(() => params.get('username') ?? '');
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  // From an earlier /ref/{code} visit; sent as the hidden referrer field.
  const [referrer] = useState(() => referralStore.get() ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const register = trpc.auth.register.useMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (register.isPending) return;
    register.reset();
    const checked = check(registerForm, { username, email, password, confirm, referrer: referrer || null });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    const { confirm: _confirm, ...input } = checked.data;
    try {
      await register.mutateAsync(input);
    } catch (err) {
      setErrors(serverFieldErrors(err));
    }
  }

  if (register.isSuccess) {
    return (
      <AuthCard title="Check your inbox">
        <div className="success-view">
          <div className="success-mark" aria-hidden="true">
            ✓
          </div>
          <p>{register.data.message}</p>
          <p className="muted">
            We sent a link to <strong>{email.trim()}</strong>. Please confirm your email through that link, then log in.
          </p>
          <Link href="/login" className="btn btn-primary btn-block">
            Go to login
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create your account" subtitle="Host your first node in minutes.">
      {register.isError && <ErrorAlert message={errorMessage(register.error)} />}
      <form onSubmit={submit} noValidate>
        <input type="hidden" name="referrer" value={referrer} />
        <TextField label="Username" value={username} onValueChange={setUsername} error={withLabel('Username', errors.username)} autoComplete="username" />
        <TextField label="Email" type="email" value={email} onValueChange={setEmail} error={withLabel('Email', errors.email)} autoComplete="email" />
        <PasswordField
          label="Password"
          value={password}
          onValueChange={setPassword}
          error={withLabel('Password', errors.password)}
          hint="At least 6 characters."
          autoComplete="new-password"
        />
        <PasswordField label="Confirm password" value={confirm} onValueChange={setConfirm} error={withLabel('Confirm password', errors.confirm)} autoComplete="new-password" />
        <button type="submit" className="btn btn-primary btn-block" disabled={register.isPending}>
          {register.isPending ? 'Creating account…' : 'Register'}
        </button>
      </form>
      <p className="muted small center">
        Already have an account? <Link href="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
