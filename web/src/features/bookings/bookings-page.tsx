import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BOOKING_STATUSES, BOOKING_VERTICALS } from '#shared/api/booking-values.ts';
import type { Booking } from '#shared/api/bookings.ts';
import { DateField } from '../../components/date-field.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { FilterSheet } from '../../components/filter-sheet.tsx';
import type { Formatters } from '../../lib/intl-format.ts';
import type { MessageId } from '../../i18n/i18n.ts';
import { useLanguage, useT, type Translate } from '../../i18n/use-t.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import {
  BOOKINGS_PAGE_SIZE,
  bookingFiltersFromParams,
  bookingFiltersToParams,
  filtersActive,
  hasFilters,
  type BookingListFilters,
  type BookingWhen,
  type TravelKind,
} from './booking-filters.ts';
import { bookingQueries } from './booking-queries.ts';
import { LastUpdated } from '../../components/last-updated.tsx';
import { useSearchParamsChanges } from '../../lib/use-search-params-changes.ts';
import { BookingStatusChip, statusLabel } from '../../components/booking-status-chip.tsx';
import { bookingName } from '../../lib/booking-name.ts';
import { bookingCities } from '../../lib/city-name.ts';
import { TextInLanguage } from '../../components/text-in-language.tsx';
import './bookings.css';

const WHEN_CHOICES: BookingWhen[] = ['upcoming', 'past', 'all'];
const TRAVEL_CHOICES: [TravelKind | '', MessageId][] = [
  ['', 'bookings.travel.both'],
  ['business', 'bookings.travel.business'],
  ['personal', 'bookings.travel.personal'],
];

type KnownVertical = (typeof BOOKING_VERTICALS)[number];
const isKnownVertical = (vertical: string): vertical is KnownVertical =>
  (BOOKING_VERTICALS as readonly string[]).includes(vertical);
/** A kind of booking in the traveler's language; a kind this version does not know reads as sent. */
const verticalLabel = (vertical: string, t: Translate) =>
  isKnownVertical(vertical) ? t(`bookingVertical.${vertical}`) : vertical;

const toggle = <T,>(values: readonly T[], value: T) =>
  values.includes(value) ? values.filter((existing) => existing !== value) : [...values, value];

export function BookingsPage() {
  const t = useT();
  useDocumentTitle(t('bookings.title'));
  const [params, changeParams] = useSearchParamsChanges();
  const setParams = (next: URLSearchParams) => changeParams(() => next);
  const filters = bookingFiltersFromParams(params);
  const page = useQuery(bookingQueries.page(filters));
  const format = useTravelerFormatters();

  // Each change builds on the last one asked: two dates typed one after the other keep both.
  const update = (change: Partial<BookingListFilters>) =>
    changeParams((latest) =>
      bookingFiltersToParams({ ...bookingFiltersFromParams(latest), offset: 0, ...change }),
    );

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
        <h1>{t('bookings.title')}</h1>
        <p className="muted" aria-live="polite">
          {meta ? t('bookings.count', { count: meta.totalCount, total: format.count(meta.totalCount) }) : ' '}
        </p>
        <LastUpdated queryKey={bookingQueries.page(filters).queryKey} format={format} />
      </div>
      <div className="bookings-layout">
        <FilterSheet
          title={t('bookings.filters.title')}
          titleActive={t('bookings.filters.titleActive', { count: filtersActive(filters) })}
          active={filtersActive(filters)}
          showLabel={t('bookings.filters.show')}
        >
          <fieldset>
            <legend>{t('bookings.travel')}</legend>
            <div className="chip-toggles">
              {TRAVEL_CHOICES.map(([travel, label]) => (
                <label key={travel} className="choice">
                  <input
                    type="radio"
                    name="bookings-travel"
                    checked={filters.travel === travel}
                    onChange={() => update({ travel })}
                  />
                  {t(label)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>{t('bookings.status')}</legend>
            <div className="chip-toggles">
              {BOOKING_STATUSES.map((status) => (
                <label key={status} className="choice">
                  <input
                    type="checkbox"
                    checked={filters.status.includes(status)}
                    onChange={() => update({ status: toggle(filters.status, status) })}
                  />
                  {statusLabel(status, t)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>{t('bookings.kind')}</legend>
            <div className="chip-toggles">
              {BOOKING_VERTICALS.map((vertical) => (
                <label key={vertical} className="choice">
                  <input
                    type="checkbox"
                    checked={filters.vertical.includes(vertical)}
                    onChange={() => update({ vertical: toggle(filters.vertical, vertical) })}
                  />
                  {verticalLabel(vertical, t)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>{t('bookings.startingBetween')}</legend>
            <div className="form-grid">
              <DateField
                label={t('bookings.from')}
                value={filters.from}
                max={filters.to || undefined}
                onChange={(from) => update({ from })}
              />
              <DateField
                label={t('bookings.to')}
                value={filters.to}
                min={filters.from || undefined}
                onChange={(to) => update({ to })}
              />
            </div>
          </fieldset>
          {hasFilters(filters) && (
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => setParams(new URLSearchParams())}
            >
              {t('bookings.clearFilters')}
            </button>
          )}
        </FilterSheet>

        <section aria-labelledby="bookings-list-title" className="stack">
          <fieldset className="segmented-filter">
            <legend className="visually-hidden">{t('bookings.show')}</legend>
            {WHEN_CHOICES.map((when) => (
              <label key={when} className="choice">
                <input
                  type="radio"
                  name="bookings-when"
                  checked={filters.when === when}
                  onChange={() => update({ when })}
                />
                {t(`bookings.when.${when}`)}
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
              ? t('bookings.range', {
                  first: format.count(first),
                  last: format.count(last),
                  total: format.count(meta.totalCount),
                })
              : t('bookings.listHeading')}
          </h2>
          {page.isError ? (
            <ErrorNotice error={page.error} onRetry={() => void page.refetch()} />
          ) : page.isPending ? (
            <ol className="card-list" aria-busy="true" aria-label={t('bookings.list')}>
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
              <ol className="card-list" aria-busy={page.isFetching} aria-label={t('bookings.list')}>
                {items.map((booking) => (
                  <li key={booking.bookingId}>
                    <BookingCard booking={booking} format={format} />
                  </li>
                ))}
              </ol>
              <nav className="pagination" aria-label={t('bookings.pages')}>
                <span className="muted">
                  {t('bookings.showing', {
                    first: format.count(first),
                    last: format.count(last),
                    total: format.count(meta?.totalCount ?? last),
                  })}
                </span>
                <div className="row">
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={filters.offset === 0}
                    onClick={() => goToOffset(Math.max(0, filters.offset - BOOKINGS_PAGE_SIZE))}
                  >
                    {t('bookings.previous')}
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={meta?.nextOffset == null}
                    onClick={() => meta?.nextOffset != null && goToOffset(meta.nextOffset)}
                  >
                    {t('bookings.next')}
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
  const t = useT();
  const { city, route } = bookingCities(booking);
  const name = bookingName({ kind: booking.vertical, title: booking.title, city, cities: route }, t);
  return (
    <article className="card booking-card" aria-labelledby={`booking-${booking.bookingId}`}>
      <div className="booking-main">
        <p className="booking-kicker small muted">
          {t('bookings.kicker', {
            kind: verticalLabel(booking.vertical, t),
            travel: t(booking.bookingProfile ? 'bookings.travel.personal' : 'bookings.travel.business'),
          })}{' '}
          <span className="mono">{booking.reference}</span>
        </p>
        <h3 id={`booking-${booking.bookingId}`} className="booking-title">
          <Link to={`/bookings/${encodeURIComponent(booking.bookingId)}`}>
            <TextInLanguage value={name} />
          </Link>
        </h3>
        <p className="small">
          {format.calendarRange(booking.startDate, booking.endDate, 'long')} · {city}
        </p>
        {booking.tripId && (
          <p className="row small">
            <Link to={`/trips/${encodeURIComponent(booking.tripId)}`}>
              {t('bookings.wholeTrip')}
              <span className="visually-hidden">
                : <TextInLanguage value={name} />
              </span>
            </Link>
            {booking.segmentId && (
              <Link
                to={`/trips/${encodeURIComponent(booking.tripId)}/segment/${encodeURIComponent(booking.segmentId)}`}
              >
                {t('bookings.liveStatus')}
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
  const t = useT();
  const language = useLanguage();
  if (!hasFilters(filters)) {
    return (
      <div className="empty-state">
        <h3>{t('bookings.none')}</h3>
        <p className="muted">{t('bookings.noneHint')}</p>
        <Link className="button" to="/flights">
          {t('bookings.searchFlights')}
        </Link>
      </div>
    );
  }
  const anyOf = new Intl.ListFormat(language, { type: 'disjunction' });
  const statuses = filters.status.length
    ? t('bookings.noneMatching.statuses', {
        list: anyOf.format(filters.status.map((status) => t(`bookingStatus.plural.${status}`))),
      })
    : '';
  const kinds = filters.vertical.length
    ? t('bookings.noneMatching.kinds', {
        list: anyOf.format(filters.vertical.map((vertical) => t(`bookingVertical.of.${vertical}`))),
      })
    : '';
  const from = filters.from && format.calendarDate(filters.from, 'long');
  const to = filters.to && format.calendarDate(filters.to, 'long');
  const when =
    from && to
      ? t('bookings.noneMatching.between', { from, to })
      : from
        ? t('bookings.noneMatching.onOrAfter', { from })
        : to
          ? t('bookings.noneMatching.onOrBefore', { to })
          : '';
  return (
    <div className="empty-state">
      <h3>{t('bookings.noneMatching', { statuses, kinds, when })}</h3>
      <p className="muted">{t('bookings.noneMatchingHint')}</p>
      <button type="button" className="button button-secondary" onClick={onClear}>
        {t('bookings.clearFilters')}
      </button>
    </div>
  );
}
