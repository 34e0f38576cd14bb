import { useState } from 'react';
import { parseStayDestinations, type StayPropertyDestination } from '#shared/api/destinations.ts';
import type { StayRoom } from '#shared/api/stays.ts';
import { ErrorNotice } from '../../../components/error-notice.tsx';
import type { MessageId } from '../../../i18n/i18n.ts';
import { useT } from '../../../i18n/use-t.ts';
import { apiJson } from '../../../lib/api-client.ts';
import { destinationParams, encodeRooms } from '../search/stay-search-params.ts';

export interface ShareStayButtonProps {
  hotelName: string;
  hotelCity: string | undefined;
  /**
   * The hotel's direct-property destination: sent by the search stream with each property, or the
   * autocomplete entry the stay was searched by. Without it (a server that does not send it), the
   * button looks the hotel up in the autocomplete.
   */
  destination?: StayPropertyDestination | undefined;
  checkIn: string;
  checkOut: string;
  rooms: StayRoom[];
  bookingProfile: boolean;
}

/** The shareable link of a stay: the property with dates and rooms, opened through a guest session. */
export function sharedStayPath(
  destination: StayPropertyDestination,
  stay: { checkIn: string; checkOut: string; rooms: StayRoom[]; bookingProfile: boolean },
): string {
  const params = new URLSearchParams({
    ...destinationParams(destination),
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    rooms: encodeRooms(stay.rooms),
    purpose: stay.bookingProfile ? 'personal' : 'business',
  });
  return `/share/stay?${params.toString()}`;
}

/**
 * Finds the autocomplete entry of a hotel, whose raw id the direct-property path needs, for a search
 * stream that sends only service ids: the autocomplete lists some of a city's hotels under the city's
 * name, and featured hotels under their own name.
 */
async function findPropertyDestination(name: string, city: string | undefined) {
  for (const query of [city, name]) {
    if (!query || query.trim().length < 2) continue;
    const candidates = parseStayDestinations(
      await apiJson<unknown>(`/api/stays/destinations?query=${encodeURIComponent(query)}&limit=25`),
    );
    const match = candidates.find(
      (candidate): candidate is StayPropertyDestination =>
        candidate.type === 'property' && candidate.name === name && (!city || candidate.city === city),
    );
    if (match) return match;
  }
  return undefined;
}

export function ShareStayButton({ hotelName, hotelCity, destination, ...stay }: ShareStayButtonProps) {
  const t = useT();
  const [link, setLink] = useState<string | null>(null);
  const [status, setStatus] = useState<MessageId | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  const share = async () => {
    setPending(true);
    setError(null);
    try {
      const resolved = destination ?? (await findPropertyDestination(hotelName, hotelCity));
      if (!resolved) {
        setStatus('stays.share.notShareable');
        return;
      }
      const url = new URL(sharedStayPath(resolved, stay), window.location.origin).href;
      setLink(url);
      if (navigator.clipboard) {
        await navigator.clipboard.writeText(url);
        setStatus('stays.share.copied');
      } else {
        setStatus('stays.share.copyBelow');
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="stack-sm share-stay">
      <div className="row">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => void share()}
          disabled={pending}
        >
          {t('stays.share.button')}
        </button>
        <span role="status" className="small muted">
          {status ? t(status) : ''}
        </span>
      </div>
      {link && (
        <label className="field">
          <span className="field-label">{t('stays.share.link')}</span>
          <input className="input" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
        </label>
      )}
      {error !== null && <ErrorNotice error={error} onRetry={() => void share()} />}
    </div>
  );
}
