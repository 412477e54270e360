import { formatBalance } from '../../shared/format';
import { changePasswordForm } from '../../shared/schemas/auth';
import { useUser } from '../session/session';
import { FormAlerts, MutationAlerts } from '../ui/Alert';
import { PageHeader } from '../layout/DashboardShell';
import { DetailsCard } from '../ui/DetailsCard';
import { PasswordField } from '../ui/Field';
import { TwoFactorSection } from './TwoFactorSection';
import { useForm } from '../ui/useForm';
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
    <DetailsCard
      title="Account"
      className="settings-section"
      rows={[
        { label: 'Username', value: user.username },
        {
          label: 'Email',
          value: (
            <span className="details-value">
              <span>{user.email}</span>
              {!user.verified && (
                <>
                  <span className="flag flag-warning">Not verified!</span>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => resend.mutate(undefined)}
                    disabled={resend.isPending}
                  >
                    {resend.isPending ? 'Sending…' : 'Resend Email'}
                  </button>
                </>
              )}
            </span>
          ),
        },
        { label: 'Balance', value: `$${formatBalance(user.balance)}` },
      ]}
    >
      {(resend.isError || resend.isSuccess) && <MutationAlerts mutation={resend} />}
    </DetailsCard>
  );
}

function ChangePasswordSection() {
  const change = trpc.auth.change_password.useMutation();
  const empty = { current_password: '', new_password: '', confirm: '' };
  const form = useForm({
    schema: changePasswordForm,
    initial: empty,
    submit: ({ confirm: _confirm, ...input }) => change.mutateAsync(input),
    onSuccess: (_res, f) => f.setValues(empty),
  });

  return (
    <section className="card settings-section" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <FormAlerts form={form} />
      <form onSubmit={form.onSubmit} noValidate className="form-narrow">
        <PasswordField {...form.field('current_password', 'Current password')} autoComplete="current-password" />
        <PasswordField
          {...form.field('new_password', 'New password')}
          hint="At least 6 characters."
          autoComplete="new-password"
        />
        <PasswordField {...form.field('confirm', 'Confirm new password')} autoComplete="new-password" />
        <button type="submit" className="btn btn-primary" disabled={form.pending}>
          {form.pending ? 'Saving…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}
