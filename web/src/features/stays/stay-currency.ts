import { CURRENCIES } from '#shared/api/flight-values.ts';
import type { StayFaresRequestInput } from '#shared/api/stays.ts';

export type StayCurrency = NonNullable<StayFaresRequestInput['currency']>;

/** The traveler's currency when stays can be priced in it; otherwise none, and hotels price in their own. */
export function stayCurrency(currency: string | undefined): StayCurrency | undefined {
  return CURRENCIES.find((known) => known === currency);
}
