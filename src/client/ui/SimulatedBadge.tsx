import { useId } from 'react';

const EXPLANATION =
  'This node runs on the platform’s demo simulator, not on the coin’s real network: its chain, status and wallet figures are simulated, it holds no collateral and earns no rewards.';

/**
 * Marks what the platform's coin-daemon simulator serves (a node, or chain figures made
 * from such nodes), for customers and the operator alike. The explanation is a tooltip
 * on hover and keyboard focus.
 */
export function SimulatedBadge({ what = 'node' }: { what?: 'node' | 'chain' }) {
  const tipId = useId();
  const text =
    what === 'chain' ? 'These figures come from simulated demo nodes, not from the coin’s real network.' : EXPLANATION;
  return (
    <span
      className="flag flag-simulated has-tooltip"
      tabIndex={0}
      aria-describedby={tipId}
      data-testid="simulated-badge"
    >
      Simulated
      <span role="tooltip" id={tipId} className="tooltip">
        {text}
      </span>
    </span>
  );
}
