import type { CoinDetail } from '../../shared/schemas/coins';

type CoinAlert = CoinDetail['alerts'][number];

/** Small inline icons; the catalog names "info" and "warning", anything else falls back to the type's icon. */
function AlertIcon({ alert }: { alert: CoinAlert }) {
  const kind = alert.icon === 'info' || alert.icon === 'warning' || alert.icon === 'danger' ? alert.icon : alert.type;
  return (
    <svg
      className="coin-alert-icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      {kind === 'info' ? (
        <>
          <circle cx="12" cy="12" r="9.5" />
          <path d="M12 11v6M12 7.5v.01" />
        </>
      ) : kind === 'warning' ? (
        <>
          <path d="M12 3 2.5 20h19L12 3Z" strokeLinejoin="round" />
          <path d="M12 10v4.5M12 17.5v.01" />
        </>
      ) : (
        <>
          <circle cx="12" cy="12" r="9.5" />
          <path d="M12 7v6M12 16.5v.01" />
        </>
      )}
    </svg>
  );
}

const TYPE_LABEL: Record<CoinAlert['type'], string> = { info: 'Note', warning: 'Warning', danger: 'Important' };

/** The coin's notices (icon, title, subtitle), coloured by type: info blue, warning amber, danger red. */
export function CoinAlerts({ alerts }: { alerts: CoinAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <div className="coin-alerts">
      {alerts.map((a, i) => (
        <div key={i} className={`coin-alert coin-alert-${a.type}`} role={a.type === 'danger' ? 'alert' : 'note'}>
          <AlertIcon alert={a} />
          <div>
            <p className="coin-alert-title">
              <span className="sr-only">{TYPE_LABEL[a.type]}: </span>
              {a.title}
            </p>
            {a.subtitle && <p className="coin-alert-subtitle">{a.subtitle}</p>}
          </div>
        </div>
      ))}
    </div>
  );
}
