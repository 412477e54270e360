import { ContactLink } from '../site/support';
import { EmptyState } from '../ui/EmptyState';

/** The Gift Code tab of /dashboard/billing. */
export function GiftCodeTab() {
  return (
    <EmptyState title="Redeem a gift code">
      To redeem a gift code, <ContactLink subject="Redeem a gift code">contact support</ContactLink>.
    </EmptyState>
  );
}
