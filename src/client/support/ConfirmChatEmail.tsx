import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'wouter';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { AuthCard } from '../layout/SiteLayout';
import { Alert } from '../ui/Alert';
import { PageLoading } from '../ui/Spinner';
import '../auth/auth.css'; // the success view's look, as on the email verification page

/**
 * The page of the link mailed to a visitor whose chat conversation is held: opening it
 * confirms their email, and the conversation reaches the team.
 */
export function ConfirmChatEmail() {
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const confirm = trpc.support.visitor_confirm.useMutation();
  // The link works once: guard against the second effect run of development mode.
  const sent = useRef(false);
  const { mutate } = confirm;
  useEffect(() => {
    if (sent.current || !token) return;
    sent.current = true;
    mutate({ token });
  }, [mutate, token]);

  let body;
  if (!token)
    body = (
      <Alert kind="error">
        This link is incomplete. Open the link from our mail in full, or write to us again from the chat on our site.
      </Alert>
    );
  else if (confirm.isError) body = <Alert kind="error">{errorMessage(confirm.error)}</Alert>;
  else if (!confirm.isSuccess) body = <PageLoading label="Confirming your email…" />;
  else
    body = (
      <div className="success-view">
        <div className="success-mark" aria-hidden="true">
          ✓
        </div>
        <p className="success-title">
          {confirm.data.status === 'confirmed' ? 'Your email is confirmed.' : 'Your email was already confirmed.'}
        </p>
        <p className="muted">Your message has reached our team. We answer in the chat on this site and by email.</p>
      </div>
    );
  return (
    <AuthCard title="Confirm your email">
      {body}
      <Link href="/" className="btn btn-primary btn-block">
        Back to the site
      </Link>
    </AuthCard>
  );
}
