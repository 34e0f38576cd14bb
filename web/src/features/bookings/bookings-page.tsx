import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BOOKING_STATUSES, BOOKING_VERTICALS, type Booking } from '#shared/api/bookings.ts';
import { ErrorNotice } from '../../components/error-notice.tsx';
import type { Formatters } from '../../lib/intl-format.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTravelerFormatters } from '../profile/use-traveler-formatters.ts';
import {
  BOOKINGS_PAGE_SIZE,
  bookingFiltersFromParams,
  bookingFiltersToParams,
  hasFilters,
  type BookingListFilters,
  type BookingWhen,
  type TravelKind,
} from './booking-filters.ts';
import { bookingQueries } from './booking-queries.ts';
import { BookingStatusChip, statusLabel } from './booking-status-chip.tsx';
import './bookings.css';

const WHEN_CHOICES: [BookingWhen, string][] = [
  ['upcoming', 'Upcoming'],
  ['past', 'Past'],
  ['all', 'All'],
];
const TRAVEL_CHOICES: [TravelKind | '', string][] = [
  ['', 'Both'],
  ['business', 'Business'],
  ['personal', 'Personal'],
];

const VERTICAL_LABELS: Record<string, string> = { flight: 'Flight', stay: 'Stay', rail: 'Rail', car: 'Car' };
const verticalLabel = (vertical: string) => VERTICAL_LABELS[vertical] ?? vertical;

const toggle = <T,>(values: readonly T[], value: T) =>
  values.includes(value) ? values.filter((existing) => existing !== value) : [...values, value];

export function BookingsPage() {
  useDocumentTitle('Bookings');
  const [params, setParams] = useSearchParams();
  const filters = bookingFiltersFromParams(params);
  const page = useQuery(bookingQueries.page(filters));
  const format = useTravelerFormatters();

  const update = (change: Partial<BookingListFilters>) =>
    setParams(bookingFiltersToParams({ ...filters, offset: 0, ...change }));

  const meta = page.data?.meta;
  const items = page.data?.items ?? [];
  const first = filters.offset + 1;
  const last = filters.offset + items.length;

  // After Previous or Next, the new page's top takes focus (its heading names the range, so a screen reader
  // announces it) and comes into view, instead of leaving the traveler at the bottom of the list.
  const listHeading = useRef<HTMLHeadingElement>(null);
  const pagedTo = useRef<number | null>(null);
  useEffect(() => {
    if (pagedTo.current !== filters.offset || page.isFetching || page.isPending) return;
    pagedTo.current = null;
    listHeading.current?.focus({ preventScroll: true });
    listHeading.current?.closest('section')?.scrollIntoView({ block: 'start' });
  }, [filters.offset, page.isFetching, page.isPending]);
  const goToOffset = (offset: number) => {
    pagedTo.current = offset;
    update({ offset });
  };

  return (
    <div className="page">
      <div className="page-header">
        <h1>Bookings</h1>
        <p className="muted" aria-live="polite">
          {meta ? `${format.count(meta.totalCount)} ${meta.totalCount === 1 ? 'booking' : 'bookings'}` : ' '}
        </p>
      </div>
      <div className="bookings-layout">
        <form
          className="card filters"
          aria-label="Filter bookings"
          onSubmit={(event) => event.preventDefault()}
        >
          <fieldset>
            <legend>Kind of travel</legend>
            <div className="chip-toggles">
              {TRAVEL_CHOICES.map(([travel, label]) => (
                <label key={label} className="choice">
                  <input
                    type="radio"
                    name="bookings-travel"
                    checked={filters.travel === travel}
                    onChange={() => update({ travel })}
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Status</legend>
            <div className="chip-toggles">
              {BOOKING_STATUSES.map((status) => (
                <label key={status} className="choice">
                  <input
                    type="checkbox"
                    checked={filters.status.includes(status)}
                    onChange={() => update({ status: toggle(filters.status, status) })}
                  />
                  {statusLabel(status)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Kind</legend>
            <div className="chip-toggles">
              {BOOKING_VERTICALS.map((vertical) => (
                <label key={vertical} className="choice">
                  <input
                    type="checkbox"
                    checked={filters.vertical.includes(vertical)}
                    onChange={() => update({ vertical: toggle(filters.vertical, vertical) })}
                  />
                  {verticalLabel(vertical)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>Starting between</legend>
            <div className="form-grid">
              <label className="field">
                <span className="field-label">From</span>
                <input
                  type="date"
                  className="input"
                  value={filters.from}
                  max={filters.to || undefined}
                  onChange={(event) => update({ from: event.target.value })}
                />
              </label>
              <label className="field">
                <span className="field-label">To</span>
                <input
                  type="date"
                  className="input"
                  value={filters.to}
                  min={filters.from || undefined}
                  onChange={(event) => update({ to: event.target.value })}
                />
              </label>
            </div>
          </fieldset>
          {hasFilters(filters) && (
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => setParams(new URLSearchParams())}
            >
              Clear filters
            </button>
          )}
        </form>

        <section aria-labelledby="bookings-list-title" className="stack">
          <fieldset className="segmented-filter">
            <legend className="visually-hidden">Show</legend>
            {WHEN_CHOICES.map(([when, label]) => (
              <label key={when} className="choice">
                <input
                  type="radio"
                  name="bookings-when"
                  checked={filters.when === when}
                  onChange={() => update({ when })}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <h2
            id="bookings-list-title"
            className="visually-hidden list-heading"
            tabIndex={-1}
            ref={listHeading}
          >
            {meta && items.length > 0
              ? `Bookings ${format.count(first)}–${format.count(last)} of ${format.count(meta.totalCount)}`
              : 'Booking list'}
          </h2>
          {page.isError ? (
            <ErrorNotice error={page.error} onRetry={() => void page.refetch()} />
          ) : page.isPending ? (
            <ol className="card-list" aria-busy="true" aria-label="Bookings">
              {[0, 1, 2, 3].map((index) => (
                <li key={index} aria-hidden="true">
                  <div className="card booking-card">
                    <span className="skeleton skeleton-line rate-skeleton-long" />
                    <span className="skeleton skeleton-line" />
                  </div>
                </li>
              ))}
            </ol>
          ) : items.length === 0 ? (
            <EmptyBookings
              filters={filters}
              format={format}
              onClear={() => setParams(new URLSearchParams())}
            />
          ) : (
            <>
              <ol className="card-list" aria-busy={page.isFetching} aria-label="Bookings">
                {items.map((booking) => (
                  <li key={booking.bookingId}>
                    <BookingCard booking={booking} format={format} />
                  </li>
                ))}
              </ol>
              <nav className="pagination" aria-label="Pages of bookings">
                <span className="muted">
                  Showing {format.count(first)}–{format.count(last)} of{' '}
                  {format.count(meta?.totalCount ?? last)}
                </span>
                <div className="row">
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={filters.offset === 0}
                    onClick={() => goToOffset(Math.max(0, filters.offset - BOOKINGS_PAGE_SIZE))}
                  >
                    Previous page
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={meta?.nextOffset == null}
                    onClick={() => meta?.nextOffset != null && goToOffset(meta.nextOffset)}
                  >
                    Next page
                  </button>
                </div>
              </nav>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function BookingCard({ booking, format }: { booking: Booking; format: Formatters }) {
  const sameDay = booking.startDate === booking.endDate;
  return (
    <article className="card booking-card" aria-labelledby={`booking-${booking.bookingId}`}>
      <div className="booking-main">
        <p className="booking-kicker small muted">
          {verticalLabel(booking.vertical)} · {booking.bookingProfile ? 'Personal' : 'Business'} · Ref{' '}
          <span className="mono">{booking.reference}</span>
        </p>
        <h3 id={`booking-${booking.bookingId}`} className="booking-title">
          <Link to={`/bookings/${encodeURIComponent(booking.bookingId)}`}>{booking.title}</Link>
        </h3>
        <p className="small">
          {format.calendarDate(booking.startDate, 'long')}
          {sameDay ? '' : ` – ${format.calendarDate(booking.endDate, 'long')}`} · {booking.location.city}
        </p>
        {booking.tripId && (
          <p className="row small">
            <Link to={`/trips/${encodeURIComponent(booking.tripId)}`}>
              Whole trip<span className="visually-hidden">: {booking.title}</span>
            </Link>
            {booking.segmentId && (
              <Link
                to={`/trips/${encodeURIComponent(booking.tripId)}/segment/${encodeURIComponent(booking.segmentId)}`}
              >
                Trip details and live status
              </Link>
            )}
          </p>
        )}
      </div>
      <div className="booking-side">
        <BookingStatusChip status={booking.status} />
        <span className="booking-price">
          {format.money(booking.totalPrice.amount, booking.totalPrice.currency)}
        </span>
      </div>
    </article>
  );
}

function EmptyBookings({
  filters,
  format,
  onClear,
}: {
  filters: BookingListFilters;
  format: Formatters;
  onClear: () => void;
}) {
  if (!hasFilters(filters)) {
    return (
      <div className="empty-state">
        <h3>No bookings yet</h3>
        <p className="muted">Trips you book appear here, business and personal together.</p>
        <Link className="button" to="/flights">
          Search flights
        </Link>
      </div>
    );
  }
  const what = [
    filters.status.map(statusLabel).join(' or ').toLowerCase(),
    filters.vertical.length ? filters.vertical.map(verticalLabel).join(' or ').toLowerCase() : '',
    'bookings',
  ]
    .filter(Boolean)
    .join(' ');
  const when =
    filters.from && filters.to
      ? ` starting between ${format.calendarDate(filters.from, 'long')} and ${format.calendarDate(filters.to, 'long')}`
      : filters.from
        ? ` starting on or after ${format.calendarDate(filters.from, 'long')}`
        : filters.to
          ? ` starting on or before ${format.calendarDate(filters.to, 'long')}`
          : '';
  return (
    <div className="empty-state">
      <h3>
        No {what}
        {when}
      </h3>
      <p className="muted">Change or clear the filters to see more.</p>
      <button type="button" className="button button-secondary" onClick={onClear}>
        Clear filters
      </button>
    </div>
  );
}
