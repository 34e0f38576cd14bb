import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { Link, useLocation } from 'react-router';
import type { DemoActionResultSchema } from '#shared/api/demo.ts';
import { useLanguage, useT } from '../../i18n/use-t.ts';
import { apiJson, type Answer } from '../../lib/api-client.ts';
import { BffError } from '../../lib/bff-error.ts';
import { APP_VERSION, nextMinorVersion } from '../update-check/index.ts';
import { updateCheckQueries } from '../update-check/update-check-queries.ts';
import './demo-panel.css';

/** Each action's words are the messages `notices.demo.<id>` and `notices.demo.<id>.explanation`. */
interface DemoAction {
  id:
    | 'segment-delay'
    | 'connection-break'
    | 'expired-offer'
    | 'price-change'
    | 'payment-decline'
    | 'booking-conflict'
    | 'cancel-failure'
    | 'provider-failure'
    | 'rate-limit'
    | 'app-update';
  path: string;
  body: () => Record<string, unknown>;
}

const FAULT_SECONDS = 60;

const ACTIONS: DemoAction[] = [
  {
    id: 'segment-delay',
    path: '/api/demo/segment-delay',
    body: () => ({ minutes: 45 }),
  },
  {
    id: 'connection-break',
    path: '/api/demo/segment-delay',
    body: () => ({ breaksConnection: true }),
  },
  {
    id: 'expired-offer',
    path: '/api/demo/expired-offer',
    body: () => ({ seconds: FAULT_SECONDS }),
  },
  {
    id: 'price-change',
    path: '/api/demo/price-change',
    body: () => ({}),
  },
  {
    id: 'payment-decline',
    path: '/api/demo/payment-decline',
    body: () => ({}),
  },
  {
    id: 'booking-conflict',
    path: '/api/demo/booking-conflict',
    body: () => ({}),
  },
  {
    id: 'cancel-failure',
    path: '/api/demo/cancel-failure',
    body: () => ({}),
  },
  {
    id: 'provider-failure',
    path: '/api/demo/provider-failure',
    body: () => ({ seconds: FAULT_SECONDS }),
  },
  {
    id: 'rate-limit',
    path: '/api/demo/rate-limit',
    body: () => ({ seconds: FAULT_SECONDS }),
  },
  {
    id: 'app-update',
    path: '/api/demo/app-update',
    body: () => ({ latestVersion: nextMinorVersion(APP_VERSION) }),
  },
];

/** Demo mode only: a small panel that triggers each behaviour live, for showing the product. */
export function DemoPanel() {
  const t = useT();
  const language = useLanguage();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const [openedAt, setOpenedAt] = useState(location.key);
  if (openedAt !== location.key) {
    setOpenedAt(location.key);
    setOpen(false);
  }
  const [done, setDone] = useState<DemoAction['id'] | null>(null);
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
      apiJson<Answer<typeof DemoActionResultSchema>>(action.path, { method: 'POST', body: action.body() }),
    onSuccess: (result, action) => {
      setDone(action.id);
      setDelayed(result.segment ?? null);
      if (action.id === 'app-update')
        void queryClient.invalidateQueries({ queryKey: updateCheckQueries.all() });
    },
  });

  return (
    <aside className="demo-panel" aria-label={t('notices.demo.controls')} onKeyDown={closeOnEscape}>
      <button
        ref={toggle}
        type="button"
        className="button button-secondary button-small demo-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        {t('notices.demo.controls')}
      </button>
      <div id={panelId} className="demo-body card" hidden={!open}>
        <h2 className="demo-title">{t('notices.demo.title')}</h2>
        <ul className="demo-actions">
          {ACTIONS.map((action) => (
            <li key={action.id}>
              <button
                type="button"
                className="button button-small"
                disabled={trigger.isPending}
                onClick={() => {
                  setDone(null);
                  trigger.mutate(action);
                }}
              >
                {t(`notices.demo.${action.id}`)}
              </button>
              <span className="small muted">{t(`notices.demo.${action.id}.explanation`)}</span>
            </li>
          ))}
        </ul>
        <p role="status" className="small">
          {done && t('notices.demo.done', { action: t(`notices.demo.${done}`).toLocaleLowerCase(language) })}
        </p>
        {delayed && (
          <Link className="small" to={`/trips/${delayed.tripId}/segment/${delayed.segmentId}`}>
            {t('notices.demo.openDelayedTrip')}
          </Link>
        )}
        {trigger.isError && (
          <ErrorNotice
            error={trigger.error}
            {...(trigger.variables.id === 'connection-break' && isNotFound(trigger.error)
              ? {
                  title: t('notices.demo.connection-break.none.title'),
                  guidance: t('notices.demo.connection-break.none.guidance'),
                }
              : {})}
          />
        )}
      </div>
    </aside>
  );
}

/**
 * "Break a connection" finds no flight or train left whose delay would miss what follows it: each press
 * broke one, or the traveler's upcoming trips have none. Not a missing page, as the code alone would say.
 */
function isNotFound(error: unknown): boolean {
  return error instanceof BffError && error.code === 'RESOURCE_NOT_FOUND';
}
