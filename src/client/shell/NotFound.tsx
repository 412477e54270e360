import { Link } from 'wouter';
import { ContactLink } from '../layout/support';

export function NotFound() {
  return (
    <div className="container page center-page">
      <p className="big-code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p className="muted">
        The page you are looking for does not exist or has moved. If you think this is a mistake,{' '}
        <ContactLink>contact us</ContactLink>.
      </p>
      <Link href="/dashboard" className="btn btn-primary">
        Go to Dashboard
      </Link>
    </div>
  );
}
