import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, Redirect, useLocation, useSearchParams } from 'wouter';
import { Alert } from '../components/Alert';
import { AuthCard } from '../components/SiteLayout';
import { PageLoading } from '../components/Spinner';
import { errorMessage } from '../errors';
import { useTRPC } from '../trpc';

const HOME_AFTER_MS = 5_000;

export function Verify() {
  const [params] = useSearchParams();
  const hash = params.get('h');
  if (!hash) return <Redirect to="/" replace />;
  return <VerifyHash hash={hash} />;
}

function VerifyHash({ hash }: { hash: string }) {
  const trpc = useTRPC();
  const [, navigate] = useLocation();
  const verify = useMutation(trpc.auth.verify.mutationOptions());

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
