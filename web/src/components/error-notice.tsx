import { useState } from 'react';
import { presentError, fieldId } from '../lib/error-grammar.ts';
import { loginUrl } from '../lib/login-url.ts';
import { useCountdown } from '../lib/use-countdown.ts';
import { useFocusOnAppear } from '../lib/use-focus-on-appear.ts';
import { useT } from '../i18n/use-t.ts';

const SUPPORT_EMAIL = 'support@wayfare.example';

export interface ErrorNoticeProps {
  error: unknown;
  /** Re-runs what failed; shown for RETRY_NOW, and called when a RETRY_LATER countdown ends. */
  onRetry?: (() => void) | undefined;
  /** Returns the traveler to the choices for CHANGE_SELECTION. */
  onChangeSelection?: (() => void) | undefined;
  /** The words of the CHANGE_SELECTION button; "Back to the choices" by default. */
  changeSelectionLabel?: string;
  /** Human labels of form fields by server path, for the FIX_INPUT summary. */
  fieldLabels?: Record<string, string>;
  /** Replaces the default title, e.g. a screen-specific phrase for a known code. */
  title?: string;
  /** Replaces the default guidance, where the screen knows better what the traveler can do. */
  guidance?: string;
  className?: string;
  /** The notice reports the outcome of what the traveler just did: it takes the focus when it appears. */
  takeFocus?: boolean;
}

/** The one rendering of the error grammar: every screen shows failures through it. */
export function ErrorNotice({
  error,
  onRetry,
  onChangeSelection,
  changeSelectionLabel,
  fieldLabels = {},
  title,
  guidance,
  className,
  takeFocus = false,
}: ErrorNoticeProps) {
  const t = useT();
  const focusOnAppear = useFocusOnAppear<HTMLDivElement>();
  const presentation = presentError(error, t);
  const { action } = presentation;
  const tone = action === 'RETRY_LATER' || action === 'FIX_INPUT' ? 'warning' : 'danger';

  return (
    <div
      role="alert"
      className={['notice', `notice-${tone}`, className].filter(Boolean).join(' ')}
      {...(takeFocus ? { tabIndex: -1, ref: focusOnAppear } : {})}
    >
      <h2>{title ?? presentation.title}</h2>
      <p>{guidance ?? presentation.guidance}</p>
      {presentation.serverMessage && (
        <p className="muted small">
          <span className="visually-hidden">{`${t('notices.error.details')} `}</span>
          {presentation.serverMessage}
        </p>
      )}

      {presentation.sessionExpired ? (
        <div className="row">
          <a className="button" href={loginUrl()}>
            {t('notices.error.signInAgain')}
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
                {t('notices.error.tryAgain')}
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
                {changeSelectionLabel ?? t('notices.error.backToChoices')}
              </button>
            </div>
          )}
          {action === 'CONTACT_SUPPORT' && <SupportReference reference={presentation.reference} />}
          {action === 'CHANGE_PAYMENT' && <p>{t('notices.error.paymentOnly')}</p>}
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
  const t = useT();
  const left = useCountdown(seconds, onRetry);
  const waiting = left !== null && left > 0;
  return (
    <div className="row">
      <p className="muted" aria-live="off">
        {waiting
          ? t('notices.error.tryingAgainIn', { seconds: left })
          : t(onRetry ? 'notices.error.tryingAgainNow' : 'notices.error.canTryAgain')}
      </p>
      {onRetry && (
        <button type="button" className="button button-secondary" disabled={waiting} onClick={onRetry}>
          {t('notices.error.tryAgain')}
        </button>
      )}
    </div>
  );
}

function SupportReference({ reference }: { reference: string | undefined }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  if (!reference) return <p>{t('notices.error.supportCanHelp', { email: SUPPORT_EMAIL })}</p>;
  const copy = () => {
    void navigator.clipboard?.writeText(reference).then(() => setCopied(true));
  };
  return (
    <div className="stack-sm">
      <p>
        {t('notices.error.reference')} <code>{reference}</code>
      </p>
      <div className="row">
        <button type="button" className="button button-secondary button-small" onClick={copy}>
          {t('notices.error.copyReference')}
        </button>
        <span role="status" className="small muted">
          {copied ? t('notices.error.referenceCopied') : ''}
        </span>
        <a
          href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(t('notices.error.emailSubject', { reference: reference }))}`}
        >
          {t('notices.error.emailSupport')}
        </a>
      </div>
    </div>
  );
}
