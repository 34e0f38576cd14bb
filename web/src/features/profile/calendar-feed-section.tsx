import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT } from '../../i18n/use-t.ts';
import {
  calendarFeedQueries,
  useNewCalendarFeedAddress,
  useTurnOffCalendarFeed,
} from './calendar-feed-queries.ts';

interface Outcome {
  message: MessageId;
  /** Counts actions, so that the same message after a second action is announced and focused again. */
  serial: number;
}

/**
 * The profile's calendar feed: turn it on (its private address, with a copy button), get a new address
 * (the old one stops working) or turn it off. The address is shown once, when it is made. After each
 * action focus moves to the message saying what happened.
 */
export function CalendarFeedSection() {
  const t = useT();
  const status = useQuery(calendarFeedQueries.status());
  const [address, setAddress] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const wasOn = status.data?.enabled === true;

  const report = (message: MessageId) =>
    setOutcome((previous) => ({ message, serial: (previous?.serial ?? 0) + 1 }));
  const issue = useNewCalendarFeedAddress((issued) => {
    setAddress(issued.url);
    report(wasOn ? 'calendarFeed.rotated' : 'calendarFeed.turnedOn');
  });
  const turnOff = useTurnOffCalendarFeed(() => {
    setAddress(null);
    report('calendarFeed.turnedOff');
  });
  const pending = issue.isPending || turnOff.isPending;
  const failed = issue.isError ? issue : turnOff.isError ? turnOff : null;

  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      report('calendarFeed.copied');
    } catch {
      report('calendarFeed.copyBelow');
    }
  };

  return (
    <section className="card stack-sm calendar-feed" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">{t('calendarFeed.title')}</h2>
      <p className="muted">{t('calendarFeed.intro')}</p>
      {status.isPending ? (
        <p role="status" aria-busy="true">
          {t('calendarFeed.loading')}
        </p>
      ) : status.isError ? (
        <ErrorNotice error={status.error} onRetry={() => void status.refetch()} />
      ) : (
        <>
          <p>{t(wasOn ? 'calendarFeed.isOn' : 'calendarFeed.isOff')}</p>
          {address ? (
            <div className="stack-sm">
              <label className="field">
                <span className="field-label">{t('calendarFeed.address')}</span>
                <input
                  className="input"
                  readOnly
                  value={address}
                  aria-describedby="calendar-feed-address-hint"
                  onFocus={(event) => event.currentTarget.select()}
                />
              </label>
              <p id="calendar-feed-address-hint" className="field-hint">
                {t('calendarFeed.addressHint')}
              </p>
              <div className="row">
                <button type="button" className="button button-secondary" onClick={() => void copy()}>
                  {t('calendarFeed.copy')}
                </button>
              </div>
            </div>
          ) : (
            wasOn && <p className="field-hint">{t('calendarFeed.addressShownOnce')}</p>
          )}
          <div className="row">
            {wasOn ? (
              <>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={pending}
                  onClick={() => issue.mutate()}
                >
                  {t('calendarFeed.rotate')}
                </button>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={pending}
                  onClick={() => turnOff.mutate()}
                >
                  {t('calendarFeed.turnOff')}
                </button>
              </>
            ) : (
              <button type="button" className="button" disabled={pending} onClick={() => issue.mutate()}>
                {t('calendarFeed.turnOn')}
              </button>
            )}
          </div>
        </>
      )}
      {failed && <ErrorNotice error={failed.error} onRetry={() => failed.reset()} />}
      <p ref={outcomeRef} role="status" tabIndex={-1} className="muted">
        {outcome ? t(outcome.message) : ''}
      </p>
    </section>
  );
}
