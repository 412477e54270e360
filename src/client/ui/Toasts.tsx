import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

export const TOAST_MS = 5_000;

type ToastKind = 'info' | 'success' | 'error';
type Toast = { id: number; text: string; kind: ToastKind; sticky: boolean; closeLabel?: string };
type ToastOptions = {
  kind?: ToastKind;
  /** Stays until closed (notifications). */ sticky?: boolean;
  /** A worded close button ("OK") instead of the cross. */ closeLabel?: string;
};

type ToastApi = { show: (text: string, opts?: ToastOptions) => void };

const ToastContext = createContext<ToastApi | null>(null);

export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToasts outside ToastProvider');
  return api;
}

const MAX_TOASTS = 5;

/**
 * At most MAX_TOASTS on screen, the oldest going first; but never one that asks to be
 * acknowledged (its worded button, e.g. a changed fee recipient): a burst of notifications
 * must not take it away unseen.
 */
function capped(list: Toast[]): Toast[] {
  let excess = list.length - MAX_TOASTS;
  return list.filter((t) => {
    if (excess > 0 && !t.closeLabel) {
      excess--;
      return false;
    }
    return true;
  });
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((text: string, opts: ToastOptions = {}) => {
    const toast = {
      id: nextId.current++,
      text,
      kind: opts.kind ?? 'info',
      sticky: opts.sticky ?? false,
      closeLabel: opts.closeLabel,
    };
    setToasts((list) => capped([...list, toast]));
  }, []);
  const api = useMemo(() => ({ show }), [show]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="region" aria-label="Messages" aria-live="polite">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onClose={() => dismiss(t.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (toast.sticky) return;
    const t = setTimeout(() => closeRef.current(), TOAST_MS);
    return () => clearTimeout(t);
  }, [toast.sticky]);
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span>{toast.text}</span>
      {toast.closeLabel ? (
        <button type="button" className="btn btn-sm btn-secondary toast-ok" onClick={onClose}>
          {toast.closeLabel}
        </button>
      ) : (
        <button type="button" className="toast-close" onClick={onClose} aria-label="Dismiss">
          ×
        </button>
      )}
    </div>
  );
}
