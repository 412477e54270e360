import { TrashIcon } from '../ui/Icons';

export type NodeTab = 'overview' | 'config' | 'proposals';

const LABELS: Record<NodeTab, string> = { overview: 'Overview', config: 'Configuration', proposals: 'Proposals' };

export const tabId = (t: NodeTab) => `node-tab-${t}`;
export const panelId = (t: NodeTab) => `node-panel-${t}`;

/**
 * Overview and Configuration, plus Proposals only while it is open (reachable by
 * query only), and the trash button that opens the delete dialog.
 */
export function NodeTabs({
  tab,
  onTab,
  onDelete,
}: {
  tab: NodeTab;
  onTab: (t: NodeTab) => void;
  onDelete: () => void;
}) {
  const tabs: NodeTab[] = tab === 'proposals' ? ['overview', 'config', 'proposals'] : ['overview', 'config'];
  return (
    <div className="node-tabs">
      <div role="tablist" aria-label="Node sections" className="tabs">
        {tabs.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={tabId(t)}
            aria-selected={tab === t}
            aria-controls={panelId(t)}
            tabIndex={tab === t ? 0 : -1}
            className="tab"
            onClick={() => onTab(t)}
            onKeyDown={(e) => {
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              const next = tabs[(tabs.indexOf(t) + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
              onTab(next);
              document.getElementById(tabId(next))?.focus();
            }}
          >
            {LABELS[t]}
          </button>
        ))}
      </div>
      <button
        type="button"
        className="btn btn-ghost icon-button delete-button"
        onClick={onDelete}
        aria-label="Delete node"
        title="Delete node"
      >
        <TrashIcon size={18} />
      </button>
    </div>
  );
}
