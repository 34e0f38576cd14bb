import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useSearchParams } from 'react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { CollapsibleSearch } from '../../components/collapsible-search.tsx';
import { fieldProblemsByPath } from '../../lib/error-grammar.ts';
import { focusField } from '../../lib/focus-field.ts';
import { todayIsoDate } from '../../lib/intl-format.ts';
import { useLanguage, useT } from '../../i18n/use-t.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { profileQueries } from '../../lib/profile-query.ts';
import { useTravelerFormatters } from '../../lib/use-traveler-formatters.ts';
import { FlightResults } from './flight-results.tsx';
import { cabinName } from './cabin-name.ts';
import { flightSearchForm } from './lazy-flight-search-form.ts';
import {
  flightSearchToParams,
  linkCorrections,
  resultViewFromParams,
  type FlightSearchForm as FlightSearchFormValue,
  writeResultView,
} from './flight-search-params.ts';
import { flightQueries } from './flight-queries.ts';
import { flightsPageForm, homeAirportChoice, searchesAsLinked } from './linked-flight-search.ts';
import { toFlightSearchRequest } from './validate-flight-search.ts';
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
  const format = useTravelerFormatters();
  const { currency, locale } = format;
  const words = { t, locale };
  const today = todayIsoDate();
  const home = homeAirportChoice(profile.data?.homeAirport);
  const form = flightsPageForm(params, today, profile.data?.homeAirport);
  // A folded form's fields are drawn only when it opens (CollapsibleSearch): the names of the airports a
  // link or the profile gave by code are asked for here, so that they open named (airport-field.tsx).
  const language = useLanguage();
  const codesOnly = new Set<string>();
  for (const leg of form.legs)
    for (const choice of [leg.origin, leg.destination])
      if (choice && choice.label === choice.code) codesOnly.add(choice.code);
  useQueries({ queries: [...codesOnly].map((code) => flightQueries.airports(code, language)) });
  const view = resultViewFromParams(params);
  const corrections = params.has('leg') ? linkCorrections(params, form, today, words) : [];
  const searched = searchesAsLinked(params, form, today);
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
  // After a search the form folds into one line, so the first offer is on the first screen; Edit search,
  // or a result that asks to change the search, opens it again until the next search.
  const [editingFor, setEditingFor] = useState<string | null>(null);
  const collapsed = searched && editingFor !== formKey && Object.keys(serverErrors).length === 0;
  const focusOrigin = useCallback(() => focusField('itinerary.0.origin'), []);

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('flights.title')}</h1>
        {/* What the form can do: folded away with the form once a search ran. */}
        {!collapsed && <p className="muted">{t('flights.intro')}</p>}
      </div>
      <div className="stack">
        {corrections.length > 0 && (
          <div className="notice notice-info" role="status">
            {corrections.map((note) => (
              <p key={note}>{note}</p>
            ))}
          </div>
        )}
        <CollapsibleSearch
          collapsed={collapsed}
          summary={
            <>
              <strong>{routeLabel(form)}</strong>
              <span className="muted">
                {' '}
                · {form.legs.map((leg) => format.calendarDate(leg.date)).join(' – ')} ·{' '}
                {t('flights.summary.adults', { count: form.adults })} · {cabinName(form.cabinClass, t)}
              </span>
            </>
          }
          editLabel={t('flights.summary.edit')}
          onEdit={() => setEditingFor(formKey)}
          focusOnEdit={focusOrigin}
          formCode={flightSearchForm}
        >
          <flightSearchForm.Component
            key={formKey}
            initial={form}
            homeAirport={home}
            serverErrors={serverErrors}
            onSearch={(next) => {
              focusResults.current = true;
              setEditingFor(null);
              setParams(flightSearchToParams(next, view));
            }}
          />
        </CollapsibleSearch>
        {searched && (
          <FlightResults
            headingRef={resultsHeading}
            request={request}
            route={routeLabel(form)}
            tripType={form.tripType}
            view={view}
            onViewChange={(nextView) =>
              setParams(writeResultView(new URLSearchParams(params), nextView), { replace: true })
            }
            onEditSearch={() =>
              flightSearchForm.whenReady(() => {
                // The form opens before its first field takes focus.
                flushSync(() => setEditingFor(formKey));
                focusOrigin();
              })
            }
          />
        )}
      </div>
    </div>
  );
}
