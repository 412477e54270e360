import { Link } from 'wouter';
import { recoverInput } from '../../shared/schemas/auth';
import { FormAlerts } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { AuthCard } from '../layout/SiteLayout';
import { useForm } from '../ui/useForm';
import { trpc } from '../app/trpc';
import './auth.css';

export function Recover() {
  const recover = trpc.auth.recover.useMutation();
  const form = useForm({ schema: recoverInput, initial: { email: '' }, submit: (data) => recover.mutateAsync(data) });

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter the email of your account and we will send you a link to choose a new password."
    >
      <FormAlerts form={form} />
      <form onSubmit={form.onSubmit} noValidate>
        <TextField {...form.field('email', 'Email')} type="email" autoComplete="email" autoFocus />
        <button type="submit" className="btn btn-primary btn-block" disabled={form.pending}>
          {form.pending ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
      <p className="muted small center">
        Remembered it? <Link href="/login">Log in</Link>
      </p>
    </AuthCard>
  );
}
