import { useEffect, useRef } from 'react';
import { Link } from 'react-router';

export interface Toast {
  id: string;
  title: string;
  body: string;
  tone: 'info' | 'warning' | 'critical';
  link?: { to: string; label: string };
}

const TOAST_LIFETIME_MS = 10_000;

/**
 * Toasts at the corner of the screen. They are not a live region themselves: the caller announces
 * each one once, politely, so screen readers hear it a single time.
 */
export function ToastRegion({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: string) => void }) {
  return (
    <section className="toast-region" aria-label="Notifications">
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </section>
  );
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const cardRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (!cardRef.current?.matches(':hover, :focus-within')) onDismiss(toast.id);
    }, TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss]);

  return (
    <div ref={cardRef} className={`toast toast-${toast.tone}`}>
      <div className="toast-body">
        <span className="toast-title">{toast.title}</span>
        <span className="small">{toast.body}</span>
        {toast.link && (
          <Link to={toast.link.to} className="small" onClick={() => onDismiss(toast.id)}>
            {toast.link.label}
          </Link>
        )}
      </div>
      <button
        type="button"
        className="button button-ghost button-small"
        aria-label={`Dismiss: ${toast.title}`}
        onClick={() => onDismiss(toast.id)}
      >
        ✕
      </button>
    </div>
  );
}
