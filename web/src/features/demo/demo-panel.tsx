import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Link, useLocation } from 'react-router';
import { DemoActionResultSchema } from '#shared/api/demo.ts';
import { apiJson } from '../../lib/api-client.ts';
import { APP_VERSION, nextMinorVersion } from '../update-check/app-version.ts';
import { updateCheckQueries } from '../update-check/update-check-queries.ts';
import './demo-panel.css';

interface DemoAction {
  id: string;
  label: string;
  explanation: string;
  path: string;
  body: () => Record<string, unknown>;
}

const FAULT_SECONDS = 60;

const ACTIONS: DemoAction[] = [
  {
    id: 'segment-delay',
    label: 'Delay one of my flights',
    explanation: 'Your next flight is delayed 45 minutes; the alert arrives live in the inbox.',
    path: '/api/demo/segment-delay',
    body: () => ({ minutes: 45 }),
  },
  {
    id: 'connection-break',
    label: 'Break a connection',
    explanation:
      'Your next flight or train is delayed until it misses what follows it; the trip marks that at risk.',
    path: '/api/demo/segment-delay',
    body: () => ({ breaksConnection: true }),
  },
  {
    id: 'expired-offer',
    label: 'Expire stay offers',
    explanation: 'For a minute, hotel rates from a search answer “prices changed, choose again”.',
    path: '/api/demo/expired-offer',
    body: () => ({ seconds: FAULT_SECONDS }),
  },
  {
    id: 'price-change',
    label: 'Change my next price check',
    explanation:
      'The next offer or rate you book shows a new price, old against new, and asks you to accept it.',
    path: '/api/demo/price-change',
    body: () => ({}),
  },
  {
    id: 'payment-decline',
    label: 'Decline my next payment',
    explanation: 'Your next booking’s card is declined; checkout asks for another payment method.',
    path: '/api/demo/payment-decline',
    body: () => ({}),
  },
  {
    id: 'booking-conflict',
    label: 'Make my next booking conflict',
    explanation: 'Your next booking clashes with an existing reservation and says why.',
    path: '/api/demo/booking-conflict',
    body: () => ({}),
  },
  {
    id: 'provider-failure',
    label: 'Make the providers fail',
    explanation: 'For a minute, searches and rates fail as if the provider were down.',
    path: '/api/demo/provider-failure',
    body: () => ({ seconds: FAULT_SECONDS }),
  },
  {
    id: 'rate-limit',
    label: 'Hit the rate limit',
    explanation: 'For a minute, only two calls go through; the rest wait with a countdown.',
    path: '/api/demo/rate-limit',
    body: () => ({ seconds: FAULT_SECONDS }),
  },
  {
    id: 'app-update',
    label: 'Announce a new version',
    explanation: 'The “new version available” banner appears (after any search in progress).',
    path: '/api/demo/app-update',
    body: () => ({ latestVersion: nextMinorVersion(APP_VERSION) }),
  },
];

/** Demo mode only: a small panel that triggers each behaviour live, for showing the product. */
export function DemoPanel() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const [openedAt, setOpenedAt] = useState(location.key);
  if (openedAt !== location.key) {
    setOpenedAt(location.key);
    setOpen(false);
  }
  const [done, setDone] = useState('');
  const [delayed, setDelayed] = useState<{ tripId: string; segmentId: string } | null>(null);
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    toggle.current?.focus();
  };
  const queryClient = useQueryClient();
  const trigger = useMutation({
    mutationFn: (action: DemoAction) =>
      apiJson(action.path, DemoActionResultSchema, { method: 'POST', body: action.body() }),
    onSuccess: (result, action) => {
      setDone(`Done: ${action.label.toLowerCase()}.`);
      setDelayed(result.segment ?? null);
      if (action.id === 'app-update')
        void queryClient.invalidateQueries({ queryKey: updateCheckQueries.all() });
    },
  });

  return (
    <aside className="demo-panel" aria-label="Demo controls" onKeyDown={closeOnEscape}>
      <button
        ref={toggle}
        type="button"
        className="button button-secondary button-small demo-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        Demo controls
      </button>
      <div id={panelId} className="demo-body card" hidden={!open}>
        <h2 className="demo-title">Show a behaviour</h2>
        <ul className="demo-actions">
          {ACTIONS.map((action) => (
            <li key={action.id}>
              <button
                type="button"
                className="button button-small"
                disabled={trigger.isPending}
                onClick={() => {
                  setDone('');
                  trigger.mutate(action);
                }}
              >
                {action.label}
              </button>
              <span className="small muted">{action.explanation}</span>
            </li>
          ))}
        </ul>
        <p role="status" className="small">
          {done}
        </p>
        {delayed && (
          <Link className="small" to={`/trips/${delayed.tripId}/segment/${delayed.segmentId}`}>
            Open the delayed trip
          </Link>
        )}
        {trigger.isError && <ErrorNotice error={trigger.error} />}
      </div>
    </aside>
  );
}
