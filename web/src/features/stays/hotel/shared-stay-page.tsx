import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { GuestSessionStatusSchema } from '#shared/api/guest-session-status.ts';
import type { StayFaresRequestInput } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import { apiJson, type Answer } from '../../../lib/api-client.ts';
import { BffError } from '../../../lib/bff-error.ts';
import { addDays, nightsBetween } from '../../../lib/intl-format.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { sessionQueries } from '../../auth/session-queries.ts';
import { SignInButton } from '../../auth/index.ts';
import { saveSelection } from '../../checkout/index.ts';
import { useTravelerFormatters } from '../../../lib/use-traveler-formatters.ts';
import { PropertyFares } from './property-fares.tsx';
import { sharedStayPath } from './share-stay-button.tsx';
import { StayHeader } from './stay-header.tsx';
import { staySearchFormFromParams } from '../search/stay-search-params.ts';
import { useStayFares } from './use-stay-fares.ts';
import { isCompleteStaySearch } from '../search/validate-stay-search.ts';
import '../stays.css';

/**
 * A shared stay: opens for anyone with the link. A visitor who is not signed in gets a guest session
 * (POST /api/guest-session) and the fares come through the direct-property path.
 */
export function SharedStayPage() {
  const t = useT();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQueries.current());
  const signedIn = session.data?.authenticated === true;
  const format = useTravelerFormatters({
    enabled: session.data?.authenticated === true && session.data.kind === 'traveler',
  });
  const [run, setRun] = useState(0);

  const stay = staySearchFormFromParams(params, { checkIn: '', checkOut: '', bookingProfile: false });
  const property = stay.destination?.type === 'property' ? stay.destination : null;
  // A business link opened by someone who is not a signed-in traveler is priced as personal travel: a
  // guest is not entitled to the sharer's corporate rates.
  const traveler = session.data?.authenticated === true && session.data.kind === 'traveler';
  const bookingProfile = traveler ? stay.bookingProfile : true;
  useDocumentTitle(property?.name ?? t('stays.shared.title'));
  const complete =
    property && isCompleteStaySearch(stay, stay.checkIn) ? { ...stay, destination: property } : null;

  const request: StayFaresRequestInput | null = complete
    ? {
        property: complete.destination,
        checkIn: complete.checkIn,
        checkOut: complete.checkOut,
        rooms: complete.rooms,
        bookingProfile,
      }
    : null;

  const state = useStayFares(
    session.isPending ? null : request,
    `${params.toString()}#${run}#${session.isPending ? 'pending' : 'ready'}`,
    async (signal) => {
      if (signedIn) return undefined;
      try {
        await apiJson<Answer<typeof GuestSessionStatusSchema>>('/api/guest-session', {
          method: 'POST',
          signal,
        });
        void queryClient.invalidateQueries({ queryKey: sessionQueries.all() });
        return undefined;
      } catch (error) {
        if (signal.aborted) return { kind: 'aborted' };
        if (error instanceof BffError) return { kind: 'error', error };
        throw error;
      }
    },
  );

  if (!complete) {
    return (
      <div className="page">
        <div className="empty-state">
          <h1>{t('stays.shared.incomplete')}</h1>
          <p className="muted">{t('stays.shared.incompleteHint')}</p>
          <Link className="button" to="/stays">
            {t('stays.form.submit')}
          </Link>
        </div>
      </div>
    );
  }

  const nights = nightsBetween(complete.checkIn, complete.checkOut);
  return (
    <div className="page stack">
      <StayHeader
        name={complete.destination.name}
        seed={complete.destination.propertyId}
        subtitle={t('stays.shared.subtitle', { city: complete.destination.city })}
        checkIn={complete.checkIn}
        checkOut={complete.checkOut}
        rooms={complete.rooms}
        bookingProfile={bookingProfile}
        format={format}
      />
      {session.data?.authenticated !== true || session.data.kind !== 'traveler' ? (
        <div className="notice notice-info">
          <p>{t('stays.shared.guest')}</p>
          <div className="row">
            <SignInButton className="button button-secondary" label={t('stays.shared.signIn')} />
          </div>
        </div>
      ) : null}
      <PropertyFares
        state={state}
        nights={nights}
        format={format}
        onRetry={() => setRun((value) => value + 1)}
        onShorten={(maxNights) =>
          void navigate(
            sharedStayPath(complete.destination, {
              ...complete,
              checkOut: addDays(complete.checkIn, maxNights),
            }),
          )
        }
        checkIn={complete.checkIn}
        onBook={
          traveler
            ? (fare) => {
                const offerId = saveSelection({
                  kind: 'stay',
                  fare,
                  hotelName: complete.destination.name,
                  checkIn: complete.checkIn,
                  checkOut: complete.checkOut,
                  rooms: complete.rooms,
                  bookingProfile,
                  returnTo: sharedStayPath(complete.destination, complete),
                });
                void navigate(`/checkout/${encodeURIComponent(offerId)}`);
              }
            : undefined
        }
      />
    </div>
  );
}
