import type { StayFare } from '#shared/api/stays.ts';
import { useT } from '../../../i18n/use-t.ts';
import type { Formatters } from '../../../lib/intl-format.ts';

/**
 * A rate's price in the hotel's own currency, beside the traveler's: shown only when the travel API
 * converted the rate (it then sends `propertyPrice`).
 */
export function HotelCurrencyPrice({
  fare,
  format,
  withTotal = false,
}: {
  fare: Pick<StayFare, 'currency' | 'propertyPrice'>;
  format: Formatters;
  withTotal?: boolean;
}) {
  const t = useT();
  const own = fare.propertyPrice;
  if (!own || own.currency === fare.currency) return null;
  const nightly = format.money(own.nightlyPrice, own.currency);
  return (
    <span className="small muted hotel-currency-price">
      {withTotal
        ? t('stays.price.hotelCurrencyTotal', { nightly, total: format.money(own.totalPrice, own.currency) })
        : t('stays.price.hotelCurrency', { nightly })}
    </span>
  );
}
