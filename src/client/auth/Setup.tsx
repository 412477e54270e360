import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { setupInput, type SetupStatus } from '../../shared/schemas/setup';
import { SecretQr } from '../account/TwoFactorSection';
import { useSession } from '../session/session';
import { Alert, FormAlerts } from '../ui/Alert';
import { CodeField, PasswordField, TextField } from '../ui/Field';
import { AuthCard } from '../layout/SiteLayout';
import { PageLoading } from '../ui/Spinner';
import { useForm } from '../ui/useForm';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import './auth.css';

/**
 * The first-run page, `/setup/<token>` (the link the server prints while no operator
 * exists): the first operator account, with its authenticator enrolled before it exists.
 */
export function Setup() {
  const { token = '' } = useParams<{ token: string }>();
  const status = trpc.setup.status.useMutation();
  // Asked once (a ref: effects run twice in dev, and looking at an expired link may print a new one).
  const asked = useRef(false);
  const { mutate } = status;
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate({ token });
  }, [mutate, token]);

  if (status.isError)
    return (
      <AuthCard title="Set up Nodekeep">
        <Alert kind="error">{errorMessage(status.error)}</Alert>
      </AuthCard>
    );
  if (!status.data) return <PageLoading label="Checking your link…" />;
  return status.data.state === 'open' ? (
    <SetupForm token={token} secret={status.data.secret} />
  ) : (
    <Closed status={status.data} />
  );
}

function Closed({ status }: { status: Exclude<SetupStatus, { state: 'open' }> }) {
  return (
    <AuthCard title={status.state === 'done' ? 'Setup is done' : 'Set up Nodekeep'}>
      <Alert kind={status.state === 'done' ? 'info' : 'error'}>{status.message}</Alert>
      {status.state === 'done' && (
        <Link href="/login" className="btn btn-primary btn-block">
          Log in
        </Link>
      )}
    </AuthCard>
  );
}

function SetupForm({ token, secret }: { token: string; secret: string }) {
  const { signIn } = useSession();
  const [, navigate] = useLocation();
  const [done, setDone] = useState(false);
  const create = trpc.setup.create_operator.useMutation();
  const form = useForm({
    schema: setupInput,
    initial: { username: '', email: '', password: '', code: '' },
    toInput: (v) => ({ ...v, token }),
    submit: (data) => create.mutateAsync(data),
    onSuccess: (res) => {
      setDone(true);
      signIn(res.auth_token, res.qr_key);
      navigate('/console', { replace: true });
    },
    // A code is good for 30 seconds: a refused one is typed afresh.
    onError: (_err, f) => f.setValues({ ...f.values, code: '' }),
  });
  const busy = form.pending || done;

  return (
    <AuthCard title="Create the operator account" subtitle="This account runs the console of this Nodekeep server.">
      <FormAlerts form={form} title="Error!" />
      <form onSubmit={(e) => (busy ? e.preventDefault() : form.onSubmit(e))} noValidate>
        <TextField {...form.field('username', 'Username')} autoComplete="username" autoFocus />
        <TextField {...form.field('email', 'Email')} type="email" autoComplete="email" />
        <PasswordField
          {...form.field('password', 'Password')}
          hint="At least 6 characters."
          autoComplete="new-password"
        />
        <h2 className="setup-step">Two-factor authentication</h2>
        <p>The console asks for a code from an authenticator app at every login.</p>
        <SecretQr secret={secret} username={form.values.username || 'operator'} />
        <CodeField {...form.field('code', '2FA code')} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Creating…' : 'Create the operator account'}
        </button>
      </form>
    </AuthCard>
  );
}
