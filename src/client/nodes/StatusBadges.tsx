import { Fragment, useId } from 'react';
import {
  NETWORK_STATUS_HELP,
  networkStatusColour,
  networkStatusText,
  nodeStatusColour,
  nodeStatusLabel,
} from '../../shared/node-status';
import './nodes.css';

/** A node's status: a dot coloured by the status catalogue and the label ("Start required"). */
export function NodeStatusBadge({ status }: { status: string }) {
  const colour = nodeStatusColour(status);
  return (
    <span className={`node-status status-${colour}`} data-colour={colour} data-testid="node-status">
      <span className="status-dot" aria-hidden="true" />
      {nodeStatusLabel(status)}
    </span>
  );
}

/**
 * The network's word for the node ("ENABLED"), coloured by the catalogue, "--" when
 * absent; a help popover (hover and keyboard focus) explains the known words.
 */
export function NetworkStatusBadge({ status }: { status: string | null }) {
  const colour = networkStatusColour(status);
  const help = status ? NETWORK_STATUS_HELP[status.toUpperCase()] : undefined;
  const tipId = useId();
  return (
    <span className="network-status-wrap">
      <span
        className={`network-status${colour ? ` status-${colour}` : ''}`}
        data-colour={colour ?? undefined}
        data-testid="network-status"
      >
        {breakAtUnderscores(networkStatusText(status))}
      </span>
      {help && (
        <button
          type="button"
          className="help-icon has-tooltip"
          aria-label={`What ${status} means`}
          aria-describedby={tipId}
        >
          ?
          <span role="tooltip" id={tipId} className="tooltip">
            {help}
          </span>
        </button>
      )}
    </span>
  );
}

/** "WAITING_FOR_PROTX" may wrap after an underscore on a narrow screen, never inside a word. */
function breakAtUnderscores(text: string) {
  const parts = text.split('_');
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && (
        <>
          _<wbr />
        </>
      )}
    </Fragment>
  ));
}
