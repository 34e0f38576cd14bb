import { useState } from 'react';
import { presentError, fieldId } from '../lib/error-grammar.ts';
import { loginUrl } from '../lib/login-url.ts';
import { useCountdown } from '../lib/use-countdown.ts';

export interface ErrorNoticeProps {
  error: unknown;
  /** Re-runs what failed; shown for RETRY_NOW, and called when a RETRY_LATER countdown ends. */
  onRetry?: (() => void) | undefined;
  /** Returns the traveler to the choices for CHANGE_SELECTION. */
  onChangeSelection?: (() => void) | undefined;
  changeSelectionLabel?: string;
  /** Human labels of form fields by server path, for the FIX_INPUT summary. */
  fieldLabels?: Record<string, string>;
  /** Replaces the default title, e.g. a screen-specific phrase for a known code. */
  title?: string;
  /** Replaces the default guidance, where the screen knows better what the traveler can do. */
  guidance?: string;
  className?: string;
}

/** The one rendering of the error grammar: every screen shows failures through it. */
export function ErrorNotice({
  error,
  onRetry,
  onChangeSelection,
  changeSelectionLabel = 'Back to the choices',
  fieldLabels = {},
  title,
  guidance,
  className,
}: ErrorNoticeProps) {
  const presentation = presentError(error);
  const { action } = presentation;
  const tone = action === 'RETRY_LATER' || action === 'FIX_INPUT' ? 'warning' : 'danger';

  return (
    <div role="alert" className={['notice', `notice-${tone}`, className].filter(Boolean).join(' ')}>
      <h2>{title ?? presentation.title}</h2>
      <p>{guidance ?? presentation.guidance}</p>
      {presentation.serverMessage && (
        <p className="muted small">
          <span className="visually-hidden">Details: </span>
          {presentation.serverMessage}
        </p>
      )}

      {presentation.sessionExpired ? (
        <div className="row">
          <a className="button" href={loginUrl()}>
            Sign in again
          </a>
        </div>
      ) : (
        <>
          {action === 'FIX_INPUT' && presentation.fieldProblems.length > 0 && (
            <ul className="stack-sm">
              {presentation.fieldProblems.map((problem) => (
                <li key={problem.field}>
                  <a href={`#${fieldId(problem.field)}`}>{fieldLabels[problem.field] ?? problem.field}</a>:{' '}
                  {problem.message}
                </li>
              ))}
            </ul>
          )}
          {action === 'RETRY_NOW' && onRetry && (
            <div className="row">
              <button type="button" className="button" onClick={onRetry}>
                Try again
              </button>
            </div>
          )}
          {action === 'RETRY_LATER' && (
            <RetryCountdown
              key={errorKey(error)}
              seconds={presentation.retryAfterSeconds ?? 5}
              onRetry={onRetry}
            />
          )}
          {action === 'CHANGE_SELECTION' && onChangeSelection && (
            <div className="row">
              <button type="button" className="button" onClick={onChangeSelection}>
                {changeSelectionLabel}
              </button>
            </div>
          )}
          {action === 'CONTACT_SUPPORT' && <SupportReference requestId={presentation.requestId} />}
          {action === 'CHANGE_PAYMENT' && (
            <p>Your other choices are kept; only the payment method needs to change.</p>
          )}
        </>
      )}
    </div>
  );
}

const errorKeys = new WeakMap<object, number>();
let nextErrorKey = 0;

/** A stable key per failure, so a new failure restarts its countdown even with the same wait. */
function errorKey(error: unknown): number {
  if (typeof error !== 'object' || error === null) return -1;
  let key = errorKeys.get(error);
  if (key === undefined) {
    key = nextErrorKey++;
    errorKeys.set(error, key);
  }
  return key;
}

function RetryCountdown({ seconds, onRetry }: { seconds: number; onRetry?: (() => void) | undefined }) {
  const left = useCountdown(seconds, onRetry);
  const waiting = left !== null && left > 0;
  return (
    <div className="row">
      <p className="muted" aria-live="off">
        {waiting ? `Trying again in ${left} s` : onRetry ? 'Trying again now' : 'You can try again now'}
      </p>
      {onRetry && (
        <button type="button" className="button button-secondary" disabled={waiting} onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

function SupportReference({ requestId }: { requestId: string | undefined }) {
  const [copied, setCopied] = useState(false);
  if (!requestId) return <p>Our support team can help: support@wayfare.example</p>;
  const copy = () => {
    void navigator.clipboard?.writeText(requestId).then(() => setCopied(true));
  };
  return (
    <div className="stack-sm">
      <p>
        Reference: <code>{requestId}</code>
      </p>
      <div className="row">
        <button type="button" className="button button-secondary button-small" onClick={copy}>
          Copy reference
        </button>
        <span role="status" className="small muted">
          {copied ? 'Reference copied' : ''}
        </span>
        <a href={`mailto:support@wayfare.example?subject=${encodeURIComponent(`Reference ${requestId}`)}`}>
          Email support
        </a>
      </div>
    </div>
  );
}
