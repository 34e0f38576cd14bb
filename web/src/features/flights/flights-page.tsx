import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { fieldProblemsByPath } from '../../lib/error-grammar.ts';
import { focusField } from '../../lib/focus-field.ts';
import { addDays, todayIsoDate } from '../../lib/intl-format.ts';
import { useT } from '../../i18n/use-t.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { profileQueries } from '../../lib/profile-query.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { FlightResults } from './flight-results.tsx';
import { FlightSearchForm } from './flight-search-form.tsx';
import {
  flightSearchFormFromParams,
  flightSearchToParams,
  linkCorrections,
  resultViewFromParams,
  type FlightSearchForm as FlightSearchFormValue,
  writeResultView,
} from './flight-search-params.ts';
import { flightQueries } from './flight-queries.ts';
import { toFlightSearchRequest, validateFlightSearch } from './validate-flight-search.ts';
import './flights.css';

function routeLabel(form: FlightSearchFormValue): string {
  const codes = form.legs.map((leg) => leg.origin?.code ?? '?');
  const last = form.legs.at(-1)?.destination?.code;
  return [...codes, ...(last ? [last] : [])].join(' → ');
}

export function FlightsPage() {
  const t = useT();
  useDocumentTitle(t('flights.title'));
  const [params, setParams] = useSearchParams();
  const profile = useQuery(profileQueries.current());
  const { currency, locale } = useTravelerFormatters();
  const words = { t, locale };
  const today = todayIsoDate();
  const home = profile.data?.homeAirport
    ? { code: profile.data.homeAirport, label: profile.data.homeAirport }
    : null;
  const form = flightSearchFormFromParams(params, {
    date: addDays(today, 21),
    returnDate: addDays(today, 28),
    home,
  });
  const view = resultViewFromParams(params);
  const corrections = params.has('leg') ? linkCorrections(params, form, today, words) : [];
  const searched = params.has('leg') && Object.keys(validateFlightSearch(form, today, words)).length === 0;
  // The search is priced in the traveler's currency, so it waits for the profile or its first failure
  // (an errored query refetching shows as pending again; that must not hide the results).
  const profileSettled = profile.data !== undefined || profile.errorUpdateCount > 0;
  const request = searched && profileSettled ? toFlightSearchRequest(form, currency) : null;
  const search = useQuery({
    ...flightQueries.search(request ?? toFlightSearchRequest(form, currency)),
    enabled: false,
  });
  const serverErrors = search.isError ? fieldProblemsByPath(search.error) : {};
  // The form remounts when the search in the URL changes, never when the profile arrives: the home
  // airport default is handed to the mounted form, which keeps whatever the traveler already typed.
  const formKey = params.has('leg') ? flightSearchToParams(form).toString() : 'new-search';
  // After Search the form remounts: focus moves to the results' heading instead of dropping to the page.
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const focusResults = useRef(false);
  useEffect(() => {
    if (!focusResults.current || !searched) return;
    focusResults.current = false;
    resultsHeading.current?.focus();
  }, [formKey, searched]);

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('flights.title')}</h1>
        <p className="muted">{t('flights.intro')}</p>
      </div>
      <div className="stack">
        {corrections.length > 0 && (
          <div className="notice notice-info" role="status">
            {corrections.map((note) => (
              <p key={note}>{note}</p>
            ))}
          </div>
        )}
        <FlightSearchForm
          key={formKey}
          initial={form}
          homeAirport={home}
          serverErrors={serverErrors}
          onSearch={(next) => {
            focusResults.current = true;
            setParams(flightSearchToParams(next, view));
          }}
        />
        {searched && (
          <FlightResults
            headingRef={resultsHeading}
            request={request}
            route={routeLabel(form)}
            view={view}
            onViewChange={(nextView) =>
              setParams(writeResultView(new URLSearchParams(params), nextView), { replace: true })
            }
            onEditSearch={() => focusField('itinerary.0.origin')}
          />
        )}
      </div>
    </div>
  );
}
