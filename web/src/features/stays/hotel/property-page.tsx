import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { StayFaresRequestInput } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import { addDays, nightsBetween } from '../../../lib/intl-format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { saveSelection } from '../../checkout/index.ts';
import { useTravelerFormatters } from '../../../lib/use-traveler-formatters.ts';
import { profileQueries } from '../../../lib/profile-query.ts';
import { stayQueries } from '../stay-queries.ts';
import { stayCurrency } from '../stay-currency.ts';
import { PropertyFares } from './property-fares.tsx';
import { hotelDestinationFromParams } from './hotel-destination-params.ts';
import { ShareStayButton } from './share-stay-button.tsx';
import { StayHeader } from './stay-header.tsx';
import { staySearchFormFromParams, staySearchToParams } from '../search/stay-search-params.ts';
import { useStayFares } from './use-stay-fares.ts';
import { isCompleteStaySearch } from '../search/validate-stay-search.ts';
import '../stays.css';

/** A hotel from a stay search: its fares through the search-stream path (searchSolutionId + propertyId). */
export function PropertyPage() {
  const { propertyId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const t = useT();
  const format = useTravelerFormatters();
  const [run, setRun] = useState(0);

  const hotelName = params.get('hotel') ?? t('stays.header.hotel');
  useDocumentTitle(hotelName);
  const search = staySearchFormFromParams(params, { checkIn: '', checkOut: '', bookingProfile: false });
  const searchSolutionId = params.get('solution');
  const solutionKey = params.get('solutionKey') ?? undefined;
  // Fares have no past-date check, so the search's own check-in stands in for "today".
  const completeSearch = isCompleteStaySearch(search, search.checkIn) ? search : null;
  const hotelId = params.get('hotelId');
  const hotel = useQuery({ ...stayQueries.property(hotelId ?? ''), enabled: hotelId !== null });
  // Rates come in the traveler's currency, so pricing waits for the profile (or its first failure).
  const profile = useQuery(profileQueries.current());
  const profileSettled = profile.data !== undefined || profile.errorUpdateCount > 0;
  const currency = stayCurrency(format.currency);

  const request: StayFaresRequestInput | null =
    completeSearch && searchSolutionId && profileSettled
      ? {
          searchSolutionId,
          propertyId,
          solutionKey,
          checkIn: completeSearch.checkIn,
          checkOut: completeSearch.checkOut,
          rooms: completeSearch.rooms,
          bookingProfile: completeSearch.bookingProfile,
          ...(currency && { currency }),
        }
      : null;
  const state = useStayFares(request, `${params.toString()}#${currency ?? ''}#${run}`);
  const resultsPath = completeSearch ? `/stays?${staySearchToParams(completeSearch).toString()}` : '/stays';
  const nights = nightsBetween(search.checkIn, search.checkOut);

  return (
    <div className="page stack">
      <p>
        <Link to={resultsPath}>{t('stays.property.back')}</Link>
      </p>
      <StayHeader
        name={hotelName}
        seed={propertyId}
        checkIn={search.checkIn}
        checkOut={search.checkOut}
        rooms={search.rooms}
        bookingProfile={search.bookingProfile}
        format={format}
        property={hotel.data}
      />
      {!completeSearch || !searchSolutionId ? (
        <div className="notice notice-warning" role="alert">
          <h2>{t('stays.property.incomplete')}</h2>
          <p>{t('stays.property.incompleteHint')}</p>
          <Link className="button" to="/stays">
            {t('stays.form.submit')}
          </Link>
        </div>
      ) : (
        <>
          <ShareStayButton
            hotelName={hotelName}
            hotelCity={
              search.destination?.type === 'city' ? search.destination.name : search.destination?.city
            }
            destination={
              hotelDestinationFromParams(params) ??
              (search.destination?.type === 'property' ? search.destination : undefined)
            }
            checkIn={search.checkIn}
            checkOut={search.checkOut}
            rooms={search.rooms}
            bookingProfile={search.bookingProfile}
          />
          <PropertyFares
            state={state}
            nights={nights}
            format={format}
            onRetry={() => setRun((value) => value + 1)}
            onShorten={(maxNights) => {
              if (!completeSearch) return;
              const shorter = { ...completeSearch, checkOut: addDays(completeSearch.checkIn, maxNights) };
              void navigate(`/stays?${staySearchToParams(shorter).toString()}`);
            }}
            onChooseAgain={() => void navigate(resultsPath)}
            checkIn={completeSearch?.checkIn}
            onBook={(fare) => {
              if (!completeSearch) return;
              const offerId = saveSelection({
                kind: 'stay',
                fare,
                hotelName,
                checkIn: completeSearch.checkIn,
                checkOut: completeSearch.checkOut,
                rooms: completeSearch.rooms,
                bookingProfile: completeSearch.bookingProfile,
                returnTo: `${location.pathname}${location.search}`,
              });
              void navigate(`/checkout/${encodeURIComponent(offerId)}`);
            }}
          />
        </>
      )}
    </div>
  );
}
