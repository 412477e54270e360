import { useEffect, useRef } from 'react';
import { Link, Redirect, useLocation, useSearchParams } from 'wouter';
import { useToasts } from '../ui/Toasts';
import { AuthCard } from '../layout/SiteLayout';
import { PageLoading } from '../ui/Spinner';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import './auth.css';

const HOME_AFTER_MS = 5_000;

export function Verify() {
  const [params] = useSearchParams();
  const hash = params.get('h');
  if (!hash) return <Redirect to="/" replace />;
  return <VerifyHash hash={hash} />;
}

function VerifyHash({ hash }: { hash: string }) {
  const [, navigate] = useLocation();
  const verify = trpc.auth.verify.useMutation();
  const toasts = useToasts();

  // The link works once: guard against the second effect run of development mode.
  const sent = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate({ hash });
  }, [mutate, hash]);

  // A bad or used link goes to the home page (spec: "Verify fails or no hash: /"), with the reason in a toast.
  const failure = verify.isError ? errorMessage(verify.error) : null;
  useEffect(() => {
    if (failure === null) return;
    toasts.show(`Email not verified: ${failure}`, { kind: 'error' });
    navigate('/', { replace: true });
  }, [failure, navigate, toasts]);

  const succeeded = verify.isSuccess;
  useEffect(() => {
    if (!succeeded) return;
    const t = setTimeout(() => navigate('/'), HOME_AFTER_MS);
    return () => clearTimeout(t);
  }, [succeeded, navigate]);

  return (
    <AuthCard title="Email verification">
      {!verify.isSuccess ? (
        <PageLoading label="Verifying your email…" />
      ) : (
        <div className="success-view">
          <div className="success-mark" aria-hidden="true">
            ✓
          </div>
          <p className="success-title">Successfully verified!</p>
          <p className="muted">You will be taken to the home page in a few seconds.</p>
          <Link href="/login" className="btn btn-primary btn-block">
            Log in
          </Link>
        </div>
      )}
    </AuthCard>
  );
}
