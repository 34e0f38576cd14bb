import { useState } from 'react';
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

/**
 * Airport autocomplete by code, city or name.
 *
 * A choice known only by its code (from a link or the profile) is shown by its name once the airport list
 * has answered. The name is the field's to show, not the form's to store: the form keeps the code, and no
 * effect writes the name back to it, where a late write could bring back an airport the traveler has just
 * typed over.
 */
export function AirportField({ id, label, value, onChange, error }: AirportFieldProps) {
  const t = useT();
  const language = useLanguage();
  const codeOnly = value !== null && value.label === value.code;
  const named = useQuery({ ...flightQueries.airports(value?.code ?? '', language), enabled: codeOnly });
  const namedAirport = codeOnly
    ? named.data?.items.find((airport) => airport.code === value.code)
    : undefined;
  // What the traveler typed, or null while the field shows the chosen airport.
  const [typed, setTyped] = useState<string | null>(null);
  // The code of an airport whose name arrived while the traveler was in the field: it keeps showing the
  // code until they leave, since any change of a focused combo box's text opens its suggestions.
  const [heldCode, setHeldCode] = useState<string | null>(null);
  const held = value !== null && heldCode === value.code;
  // A name already known when the field is drawn (the page asked for it while its form was folded) is
  // shown from the first paint.
  const chosenLabel =
    value === null ? undefined : namedAirport && !held ? labelOf(namedAirport) : value.label;
  const text = typed ?? chosenLabel ?? '';
  const [shown, setShown] = useState(value?.code ?? null);
  if ((value?.code ?? null) !== shown) {
    setShown(value?.code ?? null);
    // Another airport shows its name; a choice cleared keeps the text the field shows.
    setTyped(value ? null : text);
  }
  const query = useDebouncedValue(text);
  // The chosen airport's own label is not a search: only typing asks the server.
  const typing = typed !== null;
  const airports = useQuery({
    ...flightQueries.airports(query, language),
    enabled: typing && query === typed && query.trim().length >= 2,
  });
  // The chosen airport as the list's one option until a search answers: by its name once known.
  const fallback: Airport[] = value
    ? [
        namedAirport ?? {
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
    const code = text.trim().toUpperCase();
    return found.find((airport) => airport.code === code) ?? (found.length === 1 ? found[0] : undefined);
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
        if (next === text) return;
        setTyped(next);
        if (value) onChange(null);
      }}
      onFocus={() => {
        if (typed === null && codeOnly && !namedAirport) setHeldCode(value.code);
      }}
      onBlur={() => setHeldCode(null)}
      selectedKey={value?.code ?? null}
      onSelect={(airport) => {
        if (!airport) return;
        setTyped(null);
        // The chosen airport again (from the list, or as the field is left) keeps its choice and name.
        if (airport.code !== value?.code) onChange({ code: airport.code, label: labelOf(airport) });
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
