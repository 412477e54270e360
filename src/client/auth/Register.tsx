import { useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { registerForm } from '../../shared/schemas/auth';
import { FormAlerts } from '../ui/Alert';
import { PasswordField, TextField } from '../ui/Field';
import { AuthCard } from '../layout/SiteLayout';
import { useForm } from '../ui/useForm';
import { referralStore } from '../app/storage';
import { trpc } from '../app/trpc';
import './auth.css';

export function Register() {
  const [params] = useSearchParams();
  // From an earlier /ref/{code} visit; sent as the hidden referrer field.
  const [referrer] = useState(() => referralStore.get() ?? '');
  const register = trpc.auth.register.useMutation();
  const form = useForm({
    schema: registerForm,
    initial: { username: params.get('username') ?? '', email: params.get('email') ?? '', password: '', confirm: '' },
    toInput: (v) => ({ ...v, referrer: referrer || null }),
    submit: ({ confirm: _confirm, ...input }) => register.mutateAsync(input),
    // The page turns into the "check your inbox" view instead.
    successMessage: () => null,
  });

  if (register.isSuccess) {
    return (
      <AuthCard title="Check your inbox">
        <div className="success-view">
          <div className="success-mark" aria-hidden="true">
            ✓
          </div>
          <p>{register.data.message}</p>
          <p className="muted">
            We sent a link to <strong>{form.values.email.trim()}</strong>. Please confirm your email through that link,
            then log in.
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
      <FormAlerts form={form} title="Error!" />
      <form onSubmit={form.onSubmit} noValidate>
        <input type="hidden" name="referrer" value={referrer} />
        <TextField {...form.field('username', 'Username')} autoComplete="username" />
        <TextField {...form.field('email', 'Email')} type="email" autoComplete="email" />
        <PasswordField
          {...form.field('password', 'Password')}
          hint="At least 6 characters."
          autoComplete="new-password"
        />
        <PasswordField {...form.field('confirm', 'Confirm password')} autoComplete="new-password" />
        <button type="submit" className="btn btn-primary btn-block" disabled={form.pending}>
          {form.pending ? 'Creating account…' : 'Register'}
        </button>
      </form>
      <p className="muted small center">
        Already have an account? <Link href="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
