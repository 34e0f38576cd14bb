import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { apiSend } from '../../lib/api-client.ts';
import './demo-panel.css';

interface DemoAction {
  id: string;
  label: string;
  explanation: string;
  path: string;
}

const ACTIONS: DemoAction[] = [
  {
    id: 'delay',
    label: 'Delay one of my flights',
    explanation: 'A segment of your next trip is delayed; the alert arrives live in the inbox.',
    path: '/api/demo/segment-delay',
  },
  {
    id: 'offer-expired',
    label: 'Expire stay offers',
    explanation: 'The next hotel rates you open answer “prices changed, choose again”.',
    path: '/api/demo/offer-expired',
  },
  {
    id: 'provider-failure',
    label: 'Make the hotel provider fail',
    explanation: 'The next hotel rates end with a provider error.',
    path: '/api/demo/provider-failure',
  },
  {
    id: 'rate-limit',
    label: 'Hit the rate limit',
    explanation: 'The next searches are refused for a short while, with a countdown.',
    path: '/api/demo/rate-limit',
  },
  {
    id: 'update',
    label: 'Announce a new version',
    explanation: 'The “new version available” banner appears at the next update check.',
    path: '/api/demo/app-release',
  },
];

/** Demo mode only: a small panel that triggers each behaviour live, for showing the product. */
export function DemoPanel() {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState('');
  const panelId = useId();
  const queryClient = useQueryClient();
  const trigger = useMutation({
    mutationFn: (action: DemoAction) => apiSend(action.path, { method: 'POST', body: {} }),
    onSuccess: (_result, action) => {
      setDone(`Done: ${action.label.toLowerCase()}.`);
      if (action.id === 'update') void queryClient.invalidateQueries({ queryKey: ['update-check'] });
    },
  });

  return (
    <aside className="demo-panel" aria-label="Demo controls">
      <button
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
        {trigger.isError && <ErrorNotice error={trigger.error} />}
      </div>
    </aside>
  );
}
