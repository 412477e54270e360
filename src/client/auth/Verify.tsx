import { useEffect, useRef } from 'react';
import { Link, Redirect, useLocation, useSearchParams } from 'wouter';
import { Alert } from '../ui/Alert';
import { AuthCard } from '../site/SiteLayout';
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

  // The link works once: guard against the second effect run of development mode.
  const sent = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate({ hash });
  }, [mutate, hash]);

  const succeeded = verify.isSuccess;
  useEffect(() => {
    if (!succeeded) return;
    const t = setTimeout(() => navigate('/'), HOME_AFTER_MS);
    return () => clearTimeout(t);
  }, [succeeded, navigate]);

  return (
    <AuthCard title="Email verification">
      {verify.isPending || verify.isIdle ? (
        <PageLoading label="Verifying your email…" />
      ) : verify.isError ? (
        <Alert kind="error">{errorMessage(verify.error)}</Alert>
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
