import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { addDays, todayIsoDate } from '../../../lib/intl-format.ts';
import { fieldProblemsByPath } from '../../../lib/error-grammar.ts';
import { useT } from '../../../i18n/use-t.ts';
import { CollapsibleSearch } from '../../../components/collapsible-search.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { profileQueries } from '../../../lib/profile-query.ts';
import { stayViewFromParams, withoutStayView, writeStayView } from './arrange-stays.ts';
import { StayResults } from './stay-results.tsx';
import { StaySearchSummary } from '../search/stay-search-summary.tsx';
import { staySearchForm } from '../search/lazy-stay-search-form.ts';
import {
  staySearchFormFromParams,
  staySearchToParams,
  type StaySearch,
} from '../search/stay-search-params.ts';
import { isCompleteStaySearch } from '../search/validate-stay-search.ts';
import { stayCurrency } from '../stay-currency.ts';
import '../stays.css';

export function StaysPage() {
  const t = useT();
  useDocumentTitle(t('stays.title'));
  const [params, setParams] = useSearchParams();
  const profile = useQuery(profileQueries.current());
  const [run, setRun] = useState(0);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  const today = todayIsoDate();
  const form = staySearchFormFromParams(params, {
    checkIn: addDays(today, 14),
    checkOut: addDays(today, 16),
    bookingProfile: profile.data?.bookingProfile ?? false,
  });
  const search = params.has('checkIn') && isCompleteStaySearch(form) ? form : null;
  // The search's own parameters: a new sort or filter arranges the results, it never searches again.
  const searchKey = withoutStayView(params).toString();
  const view = stayViewFromParams(params);
  // After a search the form folds into one line on every screen, so the first hotel is on the first
  // screen; Edit search opens it again until the next search, as does a problem the traveler must fix in it.
  const [editingFor, setEditingFor] = useState<string | null>(null);
  const collapsed = search !== null && editingFor !== searchKey && Object.keys(serverErrors).length === 0;
  // Hotels are priced in the traveler's currency, so the search waits for the profile or its first failure.
  const profileSettled = profile.data !== undefined || profile.errorUpdateCount > 0;
  const currency = stayCurrency(profile.data?.currency);

  const startSearch = (next: StaySearch) => {
    setServerErrors({});
    const nextParams = staySearchToParams(next);
    setEditingFor(null);
    if (nextParams.toString() === searchKey) setRun((value) => value + 1);
    else setParams(writeStayView(nextParams, view));
  };

  return (
    <div className="page">
      <div className="page-header">
        <h1>{t('stays.title')}</h1>
        {/* What the form can do: folded away with the form once a search ran. */}
        {!collapsed && <p className="muted">{t('stays.tagline')}</p>}
      </div>
      <div className="stack">
        <CollapsibleSearch
          collapsed={collapsed}
          summary={search && <StaySearchSummary search={search} />}
          editLabel={t('stays.summary.edit')}
          onEdit={() => setEditingFor(searchKey)}
          formCode={staySearchForm}
        >
          <staySearchForm.Component
            key={searchKey}
            initial={form}
            onSearch={startSearch}
            serverErrors={serverErrors}
          />
        </CollapsibleSearch>
        {search && profileSettled && (
          <StayResults
            search={search}
            currency={currency}
            runKey={`${searchKey}|${currency ?? ''}#${run}`}
            view={view}
            onViewChange={(next) => setParams(writeStayView(params, next), { replace: true })}
            onSearchAgain={() => setRun((value) => value + 1)}
            onShortenStay={(nights) => startSearch({ ...search, checkOut: addDays(search.checkIn, nights) })}
            onFieldErrors={(error) => setServerErrors(fieldProblemsByPath(error))}
          />
        )}
      </div>
    </div>
  );
}
