import { useState, type FormEvent } from 'react';
import { CABIN_CLASSES, MAX_ITINERARY_LEGS, MAX_PASSENGERS } from '#shared/api/flight-values.ts';
import { DateField } from '../../components/date-field.tsx';
import { FormErrorSummary } from '../../components/form-error-summary.tsx';
import { FormField } from '../../components/form-field.tsx';
import type { MessageId } from '../../i18n/i18n.ts';
import { useT, type Translate } from '../../i18n/use-t.ts';
import { fieldId } from '../../lib/error-grammar.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { AirportField } from './airport-field.tsx';
import { cabinName } from './cabin-name.ts';
import {
  legsForTripType,
  TRIP_TYPES,
  type AirportChoice,
  type FlightSearchForm as FlightSearchFormValue,
  type LegForm,
  type TripType,
} from './flight-search-params.ts';
import { lastBookableDate, validateFlightSearch } from './validate-flight-search.ts';
import { OfflineNote } from '../../components/offline-note.tsx';
import { useOnline } from '../../lib/use-online.ts';

const TRIP_LABELS: Record<TripType, MessageId> = {
  'one-way': 'flights.tripType.one-way',
  return: 'flights.tripType.return',
  'multi-city': 'flights.tripType.multi-city',
};

const LEG_FIELD_LABELS: Record<string, MessageId> = {
  origin: 'flights.field.from',
  destination: 'flights.field.to',
  date: 'flights.field.date',
};

export function flightFieldLabel(path: string, t: Translate): string {
  const leg = /^itinerary\.(\d+)\.(origin|destination|date)$/.exec(path);
  const part = leg?.[2] ? LEG_FIELD_LABELS[leg[2]] : undefined;
  if (leg && part) return t(part, { number: Number(leg[1]) + 1 });
  if (path === 'passengers.adults') return t('flights.adults');
  if (path === 'cabinClass') return t('flights.cabin');
  // Never a raw field path in front of a traveler.
  return t('flights.field.search');
}

export interface FlightSearchFormProps {
  initial: FlightSearchFormValue;
  /**
   * The traveler's home airport from the profile, which may arrive after the form is on screen: it
   * fills the first origin only while it is empty and the traveler has not been in it.
   */
  homeAirport?: AirportChoice | null;
  onSearch: (form: FlightSearchFormValue) => void;
  serverErrors?: Record<string, string>;
}

export function FlightSearchForm({
  initial,
  homeAirport = null,
  onSearch,
  serverErrors = {},
}: FlightSearchFormProps) {
  const [form, setForm] = useState(initial);
  const [originEdited, setOriginEdited] = useState(false);
  const [appliedHome, setAppliedHome] = useState(homeAirport?.code ?? null);
  const [attempt, setAttempt] = useState(0);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const t = useT();
  const { locale } = useTravelerFormatters();
  const today = todayIsoDate();
  const localErrors = validateFlightSearch(form, today, { t, locale });
  const errors = {
    ...serverErrors,
    ...Object.fromEntries(Object.entries(localErrors).filter(([path]) => attempt > 0 || touched[path])),
  };
  const touch = (path: string) => setTouched((current) => ({ ...current, [path]: true }));

  const setLeg = (index: number, change: Partial<LegForm>) =>
    setForm((current) => {
      const legs = current.legs.map((leg, position) => (position === index ? { ...leg, ...change } : leg));
      if (current.tripType === 'return' && index === 0 && legs[1]) {
        legs[1] = { ...legs[1], origin: legs[0]?.destination ?? null, destination: legs[0]?.origin ?? null };
      }
      return { ...current, legs };
    });

  if ((homeAirport?.code ?? null) !== appliedHome) {
    setAppliedHome(homeAirport?.code ?? null);
    if (homeAirport && !originEdited && !form.legs[0]?.origin) setLeg(0, { origin: homeAirport });
  }

  const setTripType = (tripType: TripType) =>
    setForm((current) => ({
      ...current,
      tripType,
      legs: legsForTripType(current, tripType, addDays(current.legs[0]?.date || today, 7)),
    }));

  const inFirstOrigin = (target: EventTarget) =>
    document.getElementById(fieldId('itinerary.0.origin'))?.contains(target as Node) ?? false;

  const online = useOnline();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAttempt((value) => value + 1);
    if (Object.keys(localErrors).length === 0) onSearch(form);
  };

  const legTitle = (index: number) =>
    form.tripType === 'return'
      ? index === 0
        ? t('flights.leg.outbound')
        : t('flights.leg.return')
      : form.tripType === 'one-way'
        ? t('flights.leg.flight')
        : t('flights.leg.numbered', { number: index + 1 });

  return (
    <form
      className="form card search-form"
      onSubmit={submit}
      onInput={(event) => {
        if (inFirstOrigin(event.target)) setOriginEdited(true);
      }}
      // A traveler in the empty first origin is about to fill it: the home airport arriving then would
      // change the text under their cursor.
      onFocus={(event) => {
        if (inFirstOrigin(event.target)) setOriginEdited(true);
      }}
      noValidate
      aria-label={t('flights.form')}
    >
      <FormErrorSummary errors={errors} labelFor={(path) => flightFieldLabel(path, t)} attempt={attempt} />
      <fieldset>
        <legend>{t('flights.trip')}</legend>
        <div className="choice-group">
          {TRIP_TYPES.map((tripType) => (
            <label key={tripType} className="choice">
              <input
                type="radio"
                name="trip-type"
                checked={form.tripType === tripType}
                onChange={() => setTripType(tripType)}
              />
              {t(TRIP_LABELS[tripType])}
            </label>
          ))}
        </div>
      </fieldset>
      <ol className="legs">
        {form.legs.map((leg, index) => {
          const path = `itinerary.${index}`;
          const mirrored = form.tripType === 'return' && index === 1;
          return (
            <li key={index} className="leg">
              <fieldset>
                <legend className="leg-title">{legTitle(index)}</legend>
                <div className="leg-fields">
                  {mirrored ? (
                    <p className="muted leg-mirror">
                      {leg.origin && leg.destination
                        ? `${leg.origin.code} → ${leg.destination.code}`
                        : t('flights.returnMirrors')}
                    </p>
                  ) : (
                    <>
                      <AirportField
                        id={fieldId(`${path}.origin`)}
                        label={t('flights.from')}
                        value={leg.origin}
                        onChange={(origin) => {
                          setLeg(index, { origin });
                          touch(`${path}.origin`);
                        }}
                        error={errors[`${path}.origin`]}
                      />
                      <AirportField
                        id={fieldId(`${path}.destination`)}
                        label={t('flights.to')}
                        value={leg.destination}
                        onChange={(destination) => {
                          setLeg(index, { destination });
                          touch(`${path}.destination`);
                        }}
                        error={errors[`${path}.destination`]}
                      />
                    </>
                  )}
                  <DateField
                    id={fieldId(`${path}.date`)}
                    label={mirrored ? t('flights.returnDate') : t('flights.date')}
                    value={leg.date}
                    min={form.legs[index - 1]?.date || today}
                    max={lastBookableDate(today)}
                    isRequired
                    error={errors[`${path}.date`]}
                    onChange={(date) => setLeg(index, { date })}
                    onBlur={() => touch(`${path}.date`)}
                  />
                </div>
                {form.tripType === 'multi-city' && form.legs.length > 2 && (
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    onClick={() =>
                      setForm((current) => ({
                        ...current,
                        legs: current.legs.filter((_, position) => position !== index),
                      }))
                    }
                  >
                    {t('flights.removeFlight', { number: index + 1 })}
                  </button>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {form.tripType === 'multi-city' && form.legs.length < MAX_ITINERARY_LEGS && (
        <div>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() =>
              setForm((current) => {
                const last = current.legs[current.legs.length - 1];
                return {
                  ...current,
                  legs: [
                    ...current.legs,
                    {
                      origin: last?.destination ?? null,
                      destination: null,
                      date: last?.date ? addDays(last.date, 3) : today,
                    },
                  ],
                };
              })
            }
          >
            {t('flights.addFlight')}
          </button>
        </div>
      )}
      <div className="form-grid">
        <FormField
          id={fieldId('passengers.adults')}
          label={t('flights.adults')}
          error={errors['passengers.adults']}
        >
          {(control) => (
            <select
              {...control}
              className="select"
              value={form.adults}
              onChange={(event) => setForm((current) => ({ ...current, adults: Number(event.target.value) }))}
            >
              {Array.from({ length: MAX_PASSENGERS }, (_, index) => index + 1).map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField id={fieldId('cabinClass')} label={t('flights.cabin')} error={errors.cabinClass}>
          {(control) => (
            <select
              {...control}
              className="select"
              value={form.cabinClass}
              onChange={(event) =>
                setForm((current) => ({
                  ...current,
                  cabinClass: event.target.value as FlightSearchFormValue['cabinClass'],
                }))
              }
            >
              {CABIN_CLASSES.map((cabin) => (
                <option key={cabin} value={cabin}>
                  {cabinName(cabin, t)}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
      <OfflineNote message="offline.searching" />
      <div className="row">
        <button type="submit" className="button" disabled={!online}>
          {t('flights.search')}
        </button>
      </div>
    </form>
  );
}
