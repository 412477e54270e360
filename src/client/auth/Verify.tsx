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
  if (!hash) return <NotVerified reason="this link is incomplete. Open the link in the email again." />;
  return <VerifyHash hash={hash} />;
}

/**
 * A link that cannot verify goes to the home page (spec: "Verify fails or no hash: /") with
 * the reason in a toast that stays until closed: landing on / alone says nothing.
 */
function NotVerified({ reason }: { reason: string }) {
  const toasts = useToasts();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    toasts.show(`Your email was not verified: ${reason}`, { kind: 'error', sticky: true });
  }, [reason, toasts]);
  return <Redirect to="/" replace />;
}

/** "Invalid link." → "invalid link." to follow the colon. */
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

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

  const failure = verify.isError ? errorMessage(verify.error) : null;

  const succeeded = verify.isSuccess;
  useEffect(() => {
    if (!succeeded) return;
    const t = setTimeout(() => navigate('/'), HOME_AFTER_MS);
    return () => clearTimeout(t);
  }, [succeeded, navigate]);

  if (failure !== null) return <NotVerified reason={lowerFirst(failure)} />;
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
