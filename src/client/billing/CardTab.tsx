import { ContactLink } from '../site/support';
import { EmptyState } from '../ui/EmptyState';

/** The Stripe (card) tab of /dashboard/billing. */
export function CardTab() {
  return (
    <EmptyState title="Pay by card">
      To add funds by card, <ContactLink subject="Add funds by card">contact support</ContactLink>.
    </EmptyState>
  );
}
