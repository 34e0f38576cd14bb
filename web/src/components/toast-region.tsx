import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useT } from '../i18n/use-t.ts';

export interface Toast {
  id: string;
  /** What kind of news it is, in the interface's language (a delay, a gate change). */
  kind?: string;
  title: string;
  body: string;
  /** The language of title and body when it may not be the interface's (words the travel API wrote). */
  lang?: string;
  tone: 'info' | 'warning' | 'critical';
  link?: { to: string; label: string };
}

const TOAST_LIFETIME_MS = 10_000;

/**
 * One toast at a time, at the corner of the screen (on a phone, over the header, clear of the page): the
 * first of `toasts`; the others wait their turn and show as each one before goes. They are not a live
 * region themselves: the caller announces each one once, politely, so screen readers hear it a single
 * time.
 */
export function ToastRegion({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: string) => void }) {
  const t = useT();
  const [showing] = toasts;
  return (
    <section className="toast-region" aria-label={t('notices.toasts')}>
      {showing && <ToastCard key={showing.id} toast={showing} onDismiss={onDismiss} />}
    </section>
  );
}

/**
 * A toast goes away by itself after TOAST_LIFETIME_MS, but never while the pointer is on it or focus is
 * inside it: the countdown starts again when they leave.
 */
function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const t = useT();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    if (held) return undefined;
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss, held]);

  return (
    <div
      className={`toast toast-${toast.tone}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div className="toast-body">
        {toast.kind && <span className="small muted">{toast.kind}</span>}
        <span className="toast-title" lang={toast.lang}>
          {toast.title}
        </span>
        <span className="small" lang={toast.lang}>
          {toast.body}
        </span>
        {toast.link && (
          <Link to={toast.link.to} className="small" onClick={() => onDismiss(toast.id)}>
            {toast.link.label}
          </Link>
        )}
      </div>
      <button
        type="button"
        className="button button-ghost button-small"
        aria-label={t('notices.dismiss', { title: toast.title })}
        onClick={() => onDismiss(toast.id)}
      >
        ✕
      </button>
    </div>
  );
}
