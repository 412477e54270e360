import { useId } from 'react';

const EXPLANATION =
  'Prices, volumes, market caps and the figures derived from them (node value, revenue, income) are offline demo data generated around each coin’s catalog figures, not live market quotes.';

/**
 * Says plainly that the market figures are the offline demo provider's. The
 * explanation is a tooltip on hover and keyboard focus, and the badge's description
 * for screen readers.
 */
export function DemoBadge() {
  const tipId = useId();
  return (
    <span className="flag flag-warning has-tooltip" tabIndex={0} aria-describedby={tipId} data-testid="demo-badge">
      Demo market data
      <span role="tooltip" id={tipId} className="tooltip">
        {EXPLANATION}
      </span>
    </span>
  );
}
