import { useQuery } from '@tanstack/react-query';
import { formattersFor, type Formatters } from '../../lib/intl-format.ts';
import { profileQueries } from './profile-queries.ts';

export interface TravelerFormatters extends Formatters {
  /** The traveler's preferred currency, for searches that take one. */
  currency: string | undefined;
}

/** Intl formatters in the traveler's locale from the profile (the browser's until it loads). */
export function useTravelerFormatters({ enabled = true }: { enabled?: boolean } = {}): TravelerFormatters {
  const { data: profile } = useQuery({ ...profileQueries.current(), enabled });
  const locale = profile?.locale ?? (typeof navigator !== 'undefined' ? navigator.language : 'en-GB');
  return { ...formattersFor(locale), currency: profile?.currency };
}
