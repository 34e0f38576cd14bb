import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { StayDestination } from '#shared/api/destinations.ts';
import { AsyncComboBox } from '../../../components/async-combo-box.tsx';
import { FormErrorSummary } from '../../../components/form-error-summary.tsx';
import { DateField } from '../../../components/date-field.tsx';
import type { MessageId } from '../../../i18n/i18n.ts';
import { useLanguage, useT, type Translate } from '../../../i18n/use-t.ts';
import { fieldId } from '../../../lib/error-grammar.ts';
import { addDays, todayIsoDate } from '../../../lib/intl-format.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { RoomsEditor } from './rooms-editor.tsx';
import type { StaySearch, StaySearchForm as StaySearchFormValue } from './stay-search-params.ts';
import { stayQueries } from '../stay-queries.ts';
import { describeProblems, validateStaySearch } from './validate-stay-search.ts';
import '../stays.css';
import { OfflineNote } from '../../../components/offline-note.tsx';
import { useOnline } from '../../../lib/use-online.ts';

const FIELD_LABELS: Record<string, MessageId> = {
  destination: 'stays.field.destination',
  checkIn: 'stays.field.checkIn',
  checkOut: 'stays.field.checkOut',
  rooms: 'stays.field.rooms',
  bookingProfile: 'stays.field.bookingProfile',
};

export function stayFieldLabel(path: string, t: Translate): string {
  const room = /^rooms\.(\d+)\.(adults|childrenAges)/.exec(path);
  if (room) {
    const values = { room: Number(room[1]) + 1 };
    return room[2] === 'adults' ? t('stays.field.roomAdults', values) : t('stays.field.roomChildren', values);
  }
  const label = FIELD_LABELS[path];
  return label ? t(label) : path;
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
  const t = useT();
  const language = useLanguage();
  const [form, setForm] = useState(initial);
  const [query, setQuery] = useState(initial.destination ? destinationText(initial.destination) : '');
  const [attempt, setAttempt] = useState(0);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const debouncedQuery = useDebouncedValue(query);
  // The chosen destination's own name is not a search: only typing asks the server.
  const typing = !form.destination || debouncedQuery !== destinationText(form.destination);
  const destinations = useQuery({
    ...stayQueries.destinations(debouncedQuery, language),
    enabled: typing && debouncedQuery.trim().length >= 2,
  });
  const today = todayIsoDate();

  const localErrors = describeProblems(validateStaySearch(form, today), t);
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
    <form className="form card search-form" onSubmit={submit} noValidate aria-label={t('stays.form.label')}>
      <FormErrorSummary errors={errors} labelFor={(path) => stayFieldLabel(path, t)} attempt={attempt} />
      <div className="form-grid">
        <AsyncComboBox<StayDestination>
          id={fieldId('destination')}
          label={t('stays.field.destination')}
          placeholder={t('stays.destination.placeholder')}
          items={items}
          itemKey={destinationKey}
          itemText={destinationText}
          renderItem={(destination) => (
            <>
              <span>{destination.name}</span>
              <span className="small muted">
                {destination.type === 'city'
                  ? t('stays.destination.city', { country: destination.countryCode })
                  : t('stays.destination.hotel', { city: destination.city })}
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
          emptyText={
            query.trim().length < 2
              ? t('stays.destination.typeMore')
              : destinations.isError
                ? t('forms.combo.failed')
                : t('stays.destination.noMatch')
          }
        />
        <DateField
          id={fieldId('checkIn')}
          label={t('stays.field.checkIn')}
          value={form.checkIn}
          min={today}
          isRequired
          error={errors.checkIn}
          onChange={(checkIn) =>
            setForm((current) => ({
              ...current,
              checkIn,
              checkOut: checkIn && current.checkOut <= checkIn ? addDays(checkIn, 1) : current.checkOut,
            }))
          }
          onBlur={() => setTouched((current) => ({ ...current, checkIn: true }))}
        />
        <DateField
          id={fieldId('checkOut')}
          label={t('stays.field.checkOut')}
          value={form.checkOut}
          min={form.checkIn ? addDays(form.checkIn, 1) : today}
          isRequired
          error={errors.checkOut}
          onChange={(checkOut) => setForm((current) => ({ ...current, checkOut }))}
          onBlur={() => setTouched((current) => ({ ...current, checkOut: true }))}
        />
      </div>
      <RoomsEditor
        rooms={form.rooms}
        onChange={(rooms) => setForm((current) => ({ ...current, rooms }))}
        errors={errors}
      />
      <fieldset id={fieldId('bookingProfile')} tabIndex={-1}>
        <legend>{t('stays.field.bookingProfile')}</legend>
        <div className="choice-group">
          <label className="choice">
            <input
              type="radio"
              name="stay-booking-profile"
              checked={!form.bookingProfile}
              onChange={() => setForm((current) => ({ ...current, bookingProfile: false }))}
            />
            {t('stays.purpose.business')}
          </label>
          <label className="choice">
            <input
              type="radio"
              name="stay-booking-profile"
              checked={form.bookingProfile}
              onChange={() => setForm((current) => ({ ...current, bookingProfile: true }))}
            />
            {t('stays.purpose.personal')}
          </label>
        </div>
      </fieldset>
      <OfflineNote message="offline.searching" />
      <div className="row">
        <button type="submit" className="button" disabled={!online}>
          {t('stays.form.submit')}
        </button>
      </div>
    </form>
  );
}
