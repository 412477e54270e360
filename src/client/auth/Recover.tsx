import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { recoverInput } from '../../shared/schemas/auth';
import { MutationAlerts } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { AuthCard } from '../site/SiteLayout';
import { check, withLabel, type FieldErrors } from '../ui/forms';
import { trpc } from '../app/trpc';
import './auth.css';

export function Recover() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const recover = trpc.auth.recover.useMutation();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (recover.isPending) return;
    const checked = check(recoverInput, { email });
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) recover.mutate(checked.data);
  }

  return (
    <AuthCard title="Reset your password" subtitle="Enter the email of your account and we will send you a link to choose a new password.">
      <MutationAlerts mutation={recover} />
      <form onSubmit={submit} noValidate>
        <TextField label="Email" type="email" value={email} onValueChange={setEmail} error={withLabel('Email', errors.email)} autoComplete="email" autoFocus />
        <button type="submit" className="btn btn-primary btn-block" disabled={recover.isPending}>
          {recover.isPending ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
      <p className="muted small center">
        Remembered it? <Link href="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
