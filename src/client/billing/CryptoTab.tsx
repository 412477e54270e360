import { ContactLink } from '../site/support';
import { EmptyState } from '../ui/EmptyState';

/** The Crypto tab of /dashboard/billing. */
export function CryptoTab() {
  return (
    <EmptyState title="Pay with crypto">
      To add funds with cryptocurrency, <ContactLink subject="Add funds by crypto">contact support</ContactLink>.
    </EmptyState>
  );
}
