import { useEffect } from 'react';
import { Link, Redirect } from 'wouter';
import { useSession } from '../session/session';
import { safeRedirect } from '../app/site';
import { maintenanceReturnStore } from '../app/storage';

/**
 * /maintenance. The session asks the server about maintenance every 15 seconds while it
 * lasts (logged-in tabs also hear it live); when it ends, a tab that was sent here goes
 * back to where it was. Someone who opens /maintenance by hand sees that all is well.
 */
export function Maintenance() {
  const { maintenance, user } = useSession();
  useEffect(() => {
    if (maintenance && maintenanceReturnStore.get() === null) maintenanceReturnStore.set(user ? '/dashboard' : '/');
  }, [maintenance, user]);

  if (!maintenance) {
    const back = maintenanceReturnStore.get();
    if (back !== null) return <LeaveMaintenance to={safeRedirect(back) ?? '/'} />;
    return (
      <div className="container page center-page">
        <h1>No maintenance right now</h1>
        <p className="muted">Everything is up and running.</p>
        <Link href="/dashboard" className="btn btn-primary">
          Go to Dashboard
        </Link>
      </div>
    );
  }
  return (
    <div className="container page center-page">
      <svg className="big-icon" viewBox="0 0 24 24" width="56" height="56" aria-hidden="true">
        <path
          fill="currentColor"
          d="M22.7 19.3 13.6 10.2c.9-2.3.4-5-1.5-6.9-2-2-5-2.4-7.4-1.3l4.3 4.3-3 3-4.4-4.3C.5 7.4 1 10.4 3 12.4c1.9 1.9 4.6 2.4 6.9 1.5l9.1 9.1c.4.4 1 .4 1.4 0l2.3-2.3c.4-.4.4-1 0-1.4Z"
        />
      </svg>
      <h1>We're just tuning up a few things.</h1>
      <p className="muted">
        We apologize for the inconvenience. Nodekeep is down for planned maintenance and will be back shortly.
      </p>
      <p className="muted small">This page returns to where you were by itself when we are done.</p>
    </div>
  );
}

function LeaveMaintenance({ to }: { to: string }) {
  useEffect(() => maintenanceReturnStore.clear(), []);
  return <Redirect to={to} replace />;
}
