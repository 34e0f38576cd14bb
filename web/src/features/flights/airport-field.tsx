import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Airport } from '#shared/api/flights.ts';
import { AsyncComboBox } from '../../components/async-combo-box.tsx';
import { useLanguage, useT } from '../../i18n/use-t.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import type { AirportChoice } from './flight-search-params.ts';
import { flightQueries } from './flight-queries.ts';

export interface AirportFieldProps {
  id: string;
  label: string;
  value: AirportChoice | null;
  onChange: (value: AirportChoice | null) => void;
  error?: string | undefined;
}

/** "London · Heathrow (LHR)"; the name alone when it already says the city ("Barcelona Airport (BCN)"). */
const labelOf = (airport: Airport) =>
  airport.name.toLowerCase().includes(airport.city.toLowerCase())
    ? `${airport.name} (${airport.code})`
    : `${airport.city} · ${airport.name} (${airport.code})`;

/** Airport autocomplete by code, city or name. */
export function AirportField({ id, label, value, onChange, error }: AirportFieldProps) {
  const t = useT();
  const language = useLanguage();
  // A choice known only by its code (from a link or the profile) is named from the airport list once.
  const codeOnly = value !== null && value.label === value.code;
  const named = useQuery({ ...flightQueries.airports(value?.code ?? '', language), enabled: codeOnly });
  const namedAirport = codeOnly
    ? named.data?.items.find((airport) => airport.code === value.code)
    : undefined;
  // What the field shows for the chosen airport. A name already known when the field is drawn (the page
  // asked for it while its form was folded) is shown from the first paint: naming it later, under the
  // traveler's cursor, would open the suggestions.
  const chosenLabel = namedAirport ? labelOf(namedAirport) : value?.label;
  const [text, setText] = useState(chosenLabel ?? '');
  const [shown, setShown] = useState(value);
  if (value?.code !== shown?.code || value?.label !== shown?.label) {
    setShown(value);
    // A new airport shows its label; the same airport newly named replaces its code, not typed text.
    if (value && (value.code !== shown?.code || text === shown?.label)) setText(value.label);
  }
  useEffect(() => {
    if (namedAirport) onChange({ code: namedAirport.code, label: labelOf(namedAirport) });
  }, [namedAirport, onChange]);
  const query = useDebouncedValue(text);
  // The chosen airport's own label is not a search: only typing asks the server.
  const typing = query !== chosenLabel;
  const airports = useQuery({
    ...flightQueries.airports(query, language),
    enabled: typing && query.trim().length >= 2,
  });
  const fallback: Airport[] = value
    ? [
        {
          code: value.code,
          name: value.label,
          city: value.label,
          country: '',
          countryCode: null,
          timeZone: 'UTC',
          latitude: 0,
          longitude: 0,
        },
      ]
    : [];
  const items = airports.data?.items ?? fallback;
  // While the typed text waits for its search (the debounce) or the search runs, the list is "searching",
  // never "no airport matches".
  const searching = typing && text.trim().length >= 2 && (text !== query || airports.isFetching);
  const typedAirport = (): Airport | undefined => {
    const found = text === query ? airports.data?.items : undefined;
    if (!found || found.length === 0) return undefined;
    const typed = text.trim().toUpperCase();
    return found.find((airport) => airport.code === typed) ?? (found.length === 1 ? found[0] : undefined);
  };

  return (
    <AsyncComboBox<Airport>
      id={id}
      label={label}
      placeholder={t('flights.airport.placeholder')}
      items={items}
      itemKey={(airport) => airport.code}
      itemText={labelOf}
      renderItem={(airport) => (
        <>
          <span>
            {airport.city} <strong>{airport.code}</strong>
          </span>
          <span className="small muted">
            {airport.name}
            {airport.country ? `, ${airport.country}` : ''}
          </span>
        </>
      )}
      inputValue={text}
      onInputChange={(next) => {
        setText(next);
        if (value && next !== value.label) onChange(null);
      }}
      selectedKey={value?.code ?? null}
      onSelect={(airport) => {
        if (!airport) return;
        const choice = { code: airport.code, label: labelOf(airport) };
        setText(choice.label);
        onChange(choice);
      }}
      isLoading={searching}
      resolveTyped={typedAirport}
      error={error}
      emptyText={
        text.trim().length < 2
          ? t('flights.airport.tooShort')
          : // A search that failed found nothing: it says so, never "no airport matches".
            airports.isError
            ? t('forms.combo.failed')
            : t('flights.airport.none')
      }
    />
  );
}
