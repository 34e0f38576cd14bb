import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StayDestination } from '#shared/api/destinations.ts';
import { AsyncComboBox } from '../../components/async-combo-box.tsx';
import { FormErrorSummary } from '../../components/form-error-summary.tsx';
import { FormField } from '../../components/form-field.tsx';
import { fieldId } from '../../lib/error-grammar.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { RoomsEditor } from './rooms-editor.tsx';
import type { StaySearch, StaySearchForm as StaySearchFormValue } from './stay-search-params.ts';
import { stayQueries } from './stay-queries.ts';
import { validateStaySearch } from './validate-stay-search.ts';
import './stays.css';
import { OfflineNote } from '../../components/offline-note.tsx';
import { useOnline } from '../../lib/use-online.ts';

const FIELD_LABELS: Record<string, string> = {
  destination: 'Destination',
  checkIn: 'Check-in',
  checkOut: 'Check-out',
  rooms: 'Rooms',
  bookingProfile: 'Kind of travel',
};

export function stayFieldLabel(path: string): string {
  const room = /^rooms\.(\d+)\.(adults|childrenAges)/.exec(path);
  if (room) return `Room ${Number(room[1]) + 1} ${room[2] === 'adults' ? 'adults' : 'children'}`;
  return FIELD_LABELS[path] ?? path;
}

export interface StaySearchFormProps {
  initial: StaySearchFormValue;
  onSearch: (search: StaySearch) => void;
  /** Problems the server found in the last search, by field path. */
  serverErrors?: Record<string, string>;
}

function destinationKey(destination: StayDestination): string {
  return destination.type === 'city' ? `city:${destination.cityId}` : `property:${destination.propertyId}`;
}

function destinationText(destination: StayDestination): string {
  return destination.type === 'city' ? destination.name : `${destination.name}, ${destination.city}`;
}

export function StaySearchForm({ initial, onSearch, serverErrors = {} }: StaySearchFormProps) {
  const [form, setForm] = useState(initial);
  const [query, setQuery] = useState(initial.destination ? destinationText(initial.destination) : '');
  const [attempt, setAttempt] = useState(0);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const debouncedQuery = useDebouncedValue(query);
  // The chosen destination's own name is not a search: only typing asks the server.
  const typing = !form.destination || debouncedQuery !== destinationText(form.destination);
  const destinations = useQuery({
    ...stayQueries.destinations(debouncedQuery),
    enabled: typing && debouncedQuery.trim().length >= 2,
  });
  const today = todayIsoDate();

  const localErrors = validateStaySearch(form, today);
  const visibleLocal = Object.fromEntries(
    Object.entries(localErrors).filter(([path]) => attempt > 0 || touched[path]),
  );
  const errors = { ...serverErrors, ...visibleLocal };

  const items = destinations.data ?? (form.destination ? [form.destination] : []);

  const online = useOnline();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((value) => value + 1);
    if (Object.keys(localErrors).length > 0 || !form.destination) return;
    onSearch({ ...form, destination: form.destination });
  };

  return (
    <form className="form card search-form" onSubmit={submit} noValidate aria-label="Search stays">
      <FormErrorSummary errors={errors} labelFor={stayFieldLabel} attempt={attempt} />
      <div className="form-grid">
        <AsyncComboBox<StayDestination>
          id={fieldId('destination')}
          label="Destination"
          placeholder="City or hotel"
          items={items}
          itemKey={destinationKey}
          itemText={destinationText}
          renderItem={(destination) => (
            <>
              <span>{destination.name}</span>
              <span className="small muted">
                {destination.type === 'city'
                  ? `City · ${destination.countryCode}`
                  : `Hotel · ${destination.city}`}
              </span>
            </>
          )}
          inputValue={query}
          onInputChange={(value) => {
            setQuery(value);
            if (form.destination && value !== destinationText(form.destination)) {
              setForm((current) => ({ ...current, destination: null }));
            }
          }}
          selectedKey={form.destination ? destinationKey(form.destination) : null}
          onSelect={(destination) => {
            setForm((current) => ({ ...current, destination }));
            if (destination) setQuery(destinationText(destination));
            setTouched((current) => ({ ...current, destination: true }));
          }}
          isLoading={destinations.isFetching}
          error={errors.destination}
          emptyText={query.trim().length < 2 ? 'Type at least two letters.' : 'No city or hotel matches.'}
        />
        <FormField id={fieldId('checkIn')} label="Check-in" error={errors.checkIn}>
          {(control) => (
            <input
              {...control}
              type="date"
              className="input"
              min={today}
              value={form.checkIn}
              onChange={(event) => {
                const checkIn = event.target.value;
                setForm((current) => ({
                  ...current,
                  checkIn,
                  checkOut: checkIn && current.checkOut <= checkIn ? addDays(checkIn, 1) : current.checkOut,
                }));
              }}
              onBlur={() => setTouched((current) => ({ ...current, checkIn: true }))}
            />
          )}
        </FormField>
        <FormField id={fieldId('checkOut')} label="Check-out" error={errors.checkOut}>
          {(control) => (
            <input
              {...control}
              type="date"
              className="input"
              min={form.checkIn ? addDays(form.checkIn, 1) : today}
              value={form.checkOut}
              onChange={(event) => setForm((current) => ({ ...current, checkOut: event.target.value }))}
              onBlur={() => setTouched((current) => ({ ...current, checkOut: true }))}
            />
          )}
        </FormField>
      </div>
      <RoomsEditor
        rooms={form.rooms}
        onChange={(rooms) => setForm((current) => ({ ...current, rooms }))}
        errors={errors}
      />
      <fieldset id={fieldId('bookingProfile')} tabIndex={-1}>
        <legend>Kind of travel</legend>
        <div className="choice-group">
          <label className="choice">
            <input
              type="radio"
              name="stay-booking-profile"
              checked={!form.bookingProfile}
              onChange={() => setForm((current) => ({ ...current, bookingProfile: false }))}
            />
            Business
          </label>
          <label className="choice">
            <input
              type="radio"
              name="stay-booking-profile"
              checked={form.bookingProfile}
              onChange={() => setForm((current) => ({ ...current, bookingProfile: true }))}
            />
            Personal
          </label>
        </div>
      </fieldset>
      <OfflineNote message="offline.searching" />
      <div className="row">
        <button type="submit" className="button" disabled={!online}>
          Search stays
        </button>
      </div>
    </form>
  );
}
