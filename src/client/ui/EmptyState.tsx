import type { ReactNode } from 'react';

/** What a list or page shows when there is nothing in it yet. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      {/* An empty tray: a dashed circle here read as a spinner, as if something were still loading. */}
      <svg className="empty-state-icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M5.5 5h13L21 13v6H3v-6z" />
        <path d="M3 13h5l1.5 3h5l1.5-3h5" />
      </svg>
      <h2>{title}</h2>
      {children && <div className="empty-state-text">{children}</div>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}
