import { HotelCurrencyPrice } from './hotel-currency-price.tsx';
import type { StayFare } from '#shared/api/stays.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import { useT, type Translate } from '../../../i18n/use-t.ts';
import { zoneCity, type Formatters } from '../../../lib/intl-format.ts';
import { useSearchInProgress } from '../../../lib/search-activity.ts';
import { DetailsDisclosure } from '../../../components/details-disclosure.tsx';
import { RateDetails } from '../../checkout/index.ts';
import { bedTypeLabel } from '../../../lib/bed-type-label.ts';
import { boardLabel } from '../../../lib/board-label.ts';
import { maxNightsOf } from '../search/max-nights-of.ts';
import { MaxNightsNotice } from '../search/max-nights-notice.tsx';
import type { StayFaresState } from './use-stay-fares.ts';

export interface PropertyFaresProps {
  state: StayFaresState;
  nights: number;
  format: Formatters;
  onRetry: () => void;
  /** Shortens the stay to the longest the provider prices (MAX_NIGHTS_EXCEEDED). */
  onShorten: (nights: number) => void;
  /** Back to the search, run again (OFFER_EXPIRED); absent where there was no search. */
  onChooseAgain?: (() => void) | undefined;
  /** Opens the checkout of a rate; absent where booking is not possible (a guest). */
  onBook?: ((fare: StayFare) => void) | undefined;
  /** The check-in date, for the cancellation timeline of a rate's details. */
  checkIn?: string | undefined;
}

function summary({ fares, end }: StayFaresState, t: Translate): string {
  const count = fares.length;
  if (!end) return count === 0 ? t('stays.fares.live.checking') : t('stays.fares.live.soFar', { count });
  if (end.kind === 'done')
    return count === 0 ? t('stays.fares.live.none') : t('stays.fares.live.available', { count });
  if (end.kind === 'error') return t('stays.fares.live.error');
  return t('stays.fares.live.truncated');
}

/** A property's rates as its fares stream delivers them, with a state of its own for each ending. */
export function PropertyFares({
  state,
  nights,
  format,
  onRetry,
  onShorten,
  onChooseAgain,
  onBook,
  checkIn,
}: PropertyFaresProps) {
  const t = useT();
  const { fares, end } = state;
  const streaming = end === undefined;
  useSearchInProgress(streaming);
  const error = end?.kind === 'error' ? end.error : null;

  return (
    <section className="stack" aria-labelledby="fares-title">
      <div className="results-header">
        <h2 id="fares-title">{t('stays.fares.title')}</h2>
        <p className="progress-line" aria-hidden="true">
          {streaming && <span className="spinner" />}
          {streaming
            ? t('stays.fares.foundSoFar', { count: fares.length })
            : t('stays.fares.count', { count: fares.length })}
        </p>
      </div>
      <p className="visually-hidden" role="status">
        {summary(state, t)}
      </p>

      {error?.code === 'MAX_NIGHTS_EXCEEDED' ? (
        <MaxNightsNotice maxNights={maxNightsOf(error)} nights={nights} onShorten={onShorten} />
      ) : error?.code === 'OFFER_EXPIRED' ? (
        <ErrorNotice
          error={error}
          onChangeSelection={onChooseAgain}
          changeSelectionLabel={t('stays.fares.backToResults')}
        />
      ) : error ? (
        <ErrorNotice
          error={error}
          title={error.code === 'PROVIDER_ERROR' ? t('stays.fares.providerError') : undefined}
          onRetry={onRetry}
          onChangeSelection={onChooseAgain}
        />
      ) : null}
      {end?.kind === 'truncated' && (
        <div className="notice notice-warning" role="alert">
          <h3>{t('stays.fares.truncated.title')}</h3>
          <p>{t('stays.fares.truncated.body')}</p>
          <div className="row">
            <button type="button" className="button button-secondary" onClick={onRetry}>
              {t('stays.fares.truncated.reload')}
            </button>
          </div>
        </div>
      )}
      {end?.kind === 'done' && fares.length === 0 && (
        <div className="empty-state">
          <h3>{t('stays.fares.empty.title')}</h3>
          <p className="muted">{t('stays.fares.empty.body')}</p>
        </div>
      )}

      <ol className="fare-list" aria-busy={streaming} aria-label={t('stays.fares.list')}>
        {fares.map((fare) => (
          <li key={fare.fareId}>
            <FareCard fare={fare} format={format} onBook={onBook} checkIn={checkIn} />
          </li>
        ))}
        {streaming && (
          <li aria-hidden="true">
            <div className="card fare-card">
              <div className="stack-sm">
                <span className="skeleton skeleton-line rate-skeleton-long" />
                <span className="skeleton skeleton-line" />
              </div>
              <span className="skeleton rate-skeleton-price" />
            </div>
          </li>
        )}
      </ol>
    </section>
  );
}

function FareCard({
  fare,
  format,
  onBook,
  checkIn,
}: {
  fare: StayFare;
  format: Formatters;
  onBook?: ((fare: StayFare) => void) | undefined;
  checkIn?: string | undefined;
}) {
  const t = useT();
  const { refundable, freeCancellationUntil } = fare.cancellation;
  const board = boardLabel(fare.board, t);
  return (
    <article className="card fare-card" aria-label={`${fare.roomName}, ${board}`}>
      <div className="stack-sm">
        <h3>{fare.roomName}</h3>
        <ul className="fare-terms">
          <li>{bedTypeLabel(fare.bedType, t)}</li>
          <li>{board}</li>
          <li>
            {refundable && freeCancellationUntil ? (
              <span className="chip chip-success">
                {fare.timeZone
                  ? t('stays.fare.freeCancellationUntilZoned', {
                      when: format.dateTime(freeCancellationUntil, fare.timeZone),
                      city: zoneCity(fare.timeZone),
                    })
                  : t('stays.fare.freeCancellationUntil', {
                      when: format.wallDateTime(freeCancellationUntil),
                    })}
              </span>
            ) : refundable ? (
              <span className="chip chip-success">{t('stays.freeCancellation')}</span>
            ) : (
              <span className="chip chip-warning">{t('stays.fare.nonRefundable')}</span>
            )}
          </li>
          {fare.corporateRate && (
            <li>
              <span className="chip chip-info">{t('stays.fare.corporate')}</span>
            </li>
          )}
          {fare.roomsLeft <= 3 && (
            <li className="muted">{t('stays.fare.left', { count: fare.roomsLeft })}</li>
          )}
        </ul>
        {onBook && checkIn && (
          <DetailsDisclosure
            label={
              <>
                {t('stays.fare.details')}
                <span className="visually-hidden">
                  : {fare.roomName}, {board}
                </span>
              </>
            }
          >
            <RateDetails fare={fare} checkIn={checkIn} format={format} />
            <button type="button" className="button" onClick={() => onBook(fare)}>
              {t('stays.fare.book')}
              <span className="visually-hidden">
                {' '}
                {fare.roomName}, {board}, {format.money(fare.totalPrice, fare.currency)}
              </span>
            </button>
          </DetailsDisclosure>
        )}
      </div>
      <div className="fare-price">
        <span className="price">{format.money(fare.nightlyPrice, fare.currency)}</span>
        <span className="small muted">{t('stays.fare.perNight')}</span>
        <span className="small">
          <strong>{format.money(fare.totalPrice, fare.currency)}</strong>{' '}
          {t('stays.fare.totalFor', { count: fare.nights })}
        </span>
        <HotelCurrencyPrice fare={fare} format={format} withTotal />
      </div>
    </article>
  );
}
