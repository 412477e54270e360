import { useState, type FormEvent } from 'react';
import { formatBalance } from '../../shared/format';
import { changePasswordForm } from '../../shared/schemas/auth';
import { useUser } from '../auth/auth';
import { MutationAlerts } from '../ui/Alert';
import { PageHeader } from '../dashboard/DashboardShell';
import { PasswordField } from '../ui/Field';
import { TwoFactorSection } from './TwoFactorSection';
import { serverFieldErrors } from '../app/errors';
import { check, withLabel, type FieldErrors } from '../ui/forms';
import { trpc } from '../app/trpc';
import './account.css';

export function Settings() {
  return (
    <>
      <PageHeader title="Account Settings" />
      <AccountSection />
      <ChangePasswordSection />
      <TwoFactorSection />
    </>
  );
}

function AccountSection() {
  const user = useUser();
  const resend = trpc.auth.resend_verification_email.useMutation();

  return (
    <section className="card settings-section" aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      <dl className="details">
        <div>
          <dt>Username</dt>
          <dd>{user.username}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>
            <span>{user.email}</span>
            {!user.verified && (
              <>
                <span className="flag flag-warning">Not verified!</span>
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => resend.mutate(undefined)} disabled={resend.isPending}>
                  {resend.isPending ? 'Sending…' : 'Resend Email'}
                </button>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd>${formatBalance(user.balance)}</dd>
        </div>
      </dl>
      <MutationAlerts mutation={resend} />
    </section>
  );
}

function ChangePasswordSection() {
  const change = trpc.auth.change_password.useMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (change.isPending) return;
    change.reset();
    const checked = check(changePasswordForm, { current_password: current, new_password: next, confirm });
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    try {
      await change.mutateAsync({ current_password: checked.data.current_password, new_password: checked.data.new_password });
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (err) {
      setErrors(serverFieldErrors(err));
    }
  }

  return (
    <section className="card settings-section" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <MutationAlerts mutation={change} />
      <form onSubmit={submit} noValidate className="form-narrow">
        <PasswordField
          label="Current password"
          value={current}
          onValueChange={setCurrent}
          error={withLabel('Current password', errors.current_password)}
          autoComplete="current-password"
        />
        <PasswordField
          label="New password"
          value={next}
          onValueChange={setNext}
          error={withLabel('New password', errors.new_password)}
          hint="At least 6 characters."
          autoComplete="new-password"
        />
        <PasswordField
          label="Confirm new password"
          value={confirm}
          onValueChange={setConfirm}
          error={withLabel('Confirm new password', errors.confirm)}
          autoComplete="new-password"
        />
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
