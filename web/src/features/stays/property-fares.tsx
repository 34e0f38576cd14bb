import type { StayFare } from '#shared/api/stays.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { Formatters } from '../../lib/intl-format.ts';
import { useSearchInProgress } from '../../lib/search-activity.ts';
import { DetailsDisclosure } from '../checkout/details-disclosure.tsx';
import { RateDetails, zoneLabel } from '../checkout/rate-details.tsx';
import { boardLabel } from './board-label.ts';
import { maxNightsOf } from './max-nights-of.ts';
import { MaxNightsNotice } from './max-nights-notice.tsx';
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

function summary({ fares, end }: StayFaresState): string {
  if (!end) return fares.length === 0 ? 'Checking room prices…' : `${fares.length} rooms priced so far.`;
  if (end.kind === 'done')
    return fares.length === 0 ? 'No rooms for these dates.' : `${fares.length} rooms available.`;
  if (end.kind === 'error') return 'Room prices could not be loaded.';
  return 'Room prices were cut short.';
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
  const { fares, end } = state;
  const streaming = end === undefined;
  useSearchInProgress(streaming);
  const error = end?.kind === 'error' ? end.error : null;

  return (
    <section className="stack" aria-labelledby="fares-title">
      <div className="results-header">
        <h2 id="fares-title">Rooms and rates</h2>
        <p className="progress-line" aria-hidden="true">
          {streaming && <span className="spinner" />}
          {streaming
            ? `${fares.length} found so far`
            : `${fares.length} ${fares.length === 1 ? 'rate' : 'rates'}`}
        </p>
      </div>
      <p className="visually-hidden" role="status">
        {summary(state)}
      </p>

      {error?.code === 'MAX_NIGHTS_EXCEEDED' ? (
        <MaxNightsNotice maxNights={maxNightsOf(error)} nights={nights} onShorten={onShorten} />
      ) : error?.code === 'OFFER_EXPIRED' ? (
        <ErrorNotice
          error={error}
          onChangeSelection={onChooseAgain}
          changeSelectionLabel="Back to the search results"
        />
      ) : error ? (
        <ErrorNotice
          error={error}
          title={error.code === 'PROVIDER_ERROR' ? 'The hotel provider could not price this stay' : undefined}
          onRetry={onRetry}
          onChangeSelection={onChooseAgain}
        />
      ) : null}
      {end?.kind === 'truncated' && (
        <div className="notice notice-warning" role="alert">
          <h3>Room prices were cut short</h3>
          <p>The connection ended before every rate arrived. The rates below are still valid.</p>
          <div className="row">
            <button type="button" className="button button-secondary" onClick={onRetry}>
              Load the rates again
            </button>
          </div>
        </div>
      )}
      {end?.kind === 'done' && fares.length === 0 && (
        <div className="empty-state">
          <h3>No rooms for these dates</h3>
          <p className="muted">
            This hotel has nothing available for these dates and rooms. Try other dates.
          </p>
        </div>
      )}

      <ol className="fare-list" aria-busy={streaming} aria-label="Rates">
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
  const { refundable, freeCancellationUntil } = fare.cancellation;
  return (
    <article className="card fare-card" aria-label={`${fare.roomName}, ${boardLabel(fare.board)}`}>
      <div className="stack-sm">
        <h3>{fare.roomName}</h3>
        <ul className="fare-terms">
          <li>{fare.bedType}</li>
          <li>{boardLabel(fare.board)}</li>
          <li>
            {refundable && freeCancellationUntil ? (
              <span className="chip chip-success">
                Free cancellation until{' '}
                {fare.timeZone
                  ? `${format.dateTime(freeCancellationUntil, fare.timeZone)} (${zoneLabel(fare.timeZone)})`
                  : format.wallDateTime(freeCancellationUntil)}
              </span>
            ) : refundable ? (
              <span className="chip chip-success">Free cancellation</span>
            ) : (
              <span className="chip chip-warning">Non-refundable</span>
            )}
          </li>
          {fare.corporateRate && (
            <li>
              <span className="chip chip-info">Corporate rate</span>
            </li>
          )}
          {fare.roomsLeft <= 3 && <li className="muted">Only {fare.roomsLeft} left</li>}
        </ul>
        {onBook && checkIn && (
          <DetailsDisclosure
            label={
              <>
                Details and booking
                <span className="visually-hidden">
                  : {fare.roomName}, {boardLabel(fare.board)}
                </span>
              </>
            }
          >
            <RateDetails fare={fare} checkIn={checkIn} format={format} />
            <button type="button" className="button" onClick={() => onBook(fare)}>
              Book
              <span className="visually-hidden">
                {' '}
                {fare.roomName}, {boardLabel(fare.board)}, {format.money(fare.totalPrice, fare.currency)}
              </span>
            </button>
          </DetailsDisclosure>
        )}
      </div>
      <div className="fare-price">
        <span className="price">{format.money(fare.nightlyPrice, fare.currency)}</span>
        <span className="small muted">per night</span>
        <span className="small">
          <strong>{format.money(fare.totalPrice, fare.currency)}</strong> total for {fare.nights}{' '}
          {fare.nights === 1 ? 'night' : 'nights'}
        </span>
      </div>
    </article>
  );
}
