import { Link } from 'wouter';
import type { QueueItem } from '../../shared/schemas/nodes';
import { CheckIcon, ClockIcon, CrossIcon } from '../ui/Icons';
import './queue.css';

/** The build queue's words (platform-and-account.md section 4). */
function queueText(item: QueueItem): string {
  switch (item.status) {
    case 'assigning':
      return 'Assigning server...';
    case 'done':
      return 'Click here to continue';
    case 'failed':
      return item.reason ?? 'Deployment failed';
    case 'pending':
      return item.activated ? 'Waiting for wallet...' : 'Setting up the node...';
  }
}

function QueueIcon({ status }: { status: QueueItem['status'] }) {
  if (status === 'done') return <CheckIcon className="queue-icon text-green" />;
  if (status === 'failed') return <CrossIcon className="queue-icon text-red" />;
  return <ClockIcon className="queue-icon queue-icon-wait" />;
}

/** The right-hand panel: deployments in progress and just finished, refreshed by refresh_queue. */
export function QueuePanel({ queue }: { queue: QueueItem[] }) {
  return (
    <aside className="card queue-panel" aria-labelledby="queue-title">
      <h2 id="queue-title" className="queue-title">
        Deployments
      </h2>
      {queue.length === 0 ? (
        <p className="muted small">No deployments in progress.</p>
      ) : (
        <ul className="queue-list" aria-label="Build queue">
          {queue.map((item) => {
            const text = queueText(item);
            return (
              <li key={item.mn_id} className={`queue-item queue-${item.status}`} data-mn={item.mn_id}>
                <QueueIcon status={item.status} />
                <span className="queue-body">
                  <span className="queue-name">
                    {item.name} <span className="coin-ticker">{item.currency_data.ticker}</span>
                  </span>
                  {item.status === 'done' ? (
                    <Link href={item.link} className="queue-text">
                      {text}
                    </Link>
                  ) : (
                    <span className="queue-text">{text}</span>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </aside>
  );
}
