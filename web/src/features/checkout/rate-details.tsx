import type { StayFare } from '#shared/api/stays.ts';
import { RichMessage } from '../../i18n/rich-message.tsx';
import { useT, type Translate } from '../../i18n/use-t.ts';
import { zoneCity, type Formatters } from '../../lib/intl-format.ts';
import { bedTypeLabel } from '../../lib/bed-type-label.ts';
import { boardLabel } from '../../lib/board-label.ts';
import { dueAtPropertyText } from './due-at-property-text.ts';

/**
 * The hotel's own description of what is paid on site (a city tax), written by the travel API in English
 * whatever the traveler's language: shown as written, marked English (docs/decisions.md).
 */
export const HOTEL_WORDS = <span lang="en" />;

/** "Lisbon time" for Europe/Lisbon: the zone a hotel's deadlines are given in. */
function zoneLabel(timeZone: string, t: Translate): string {
  return t('checkout.zoneTime', { city: zoneCity(timeZone) });
}

/** An instant in a hotel's own time, named: "Mon 12 Apr, 18:00 (Lisbon time)". */
export function hotelDateTime(instant: string, zone: string | undefined, format: Formatters, t: Translate) {
  return zone
    ? t('checkout.atZoneTime', { when: format.dateTime(instant, zone), zone: zoneLabel(zone, t) })
    : format.dateTime(instant);
}

/**
 * What a room rate includes and what cancelling it costs over time, in the hotel's own time, and the
 * taxes the hotel collects on site.
 */
export function RateDetails({
  fare,
  checkIn,
  format,
}: {
  fare: StayFare;
  checkIn: string;
  format: Formatters;
}) {
  const t = useT();
  const { refundable, freeCancellationUntil } = fare.cancellation;
  const checkInDate = format.calendarDate(checkIn, 'long');
  return (
    <div className="checkout-details stack-sm">
      <h4>{t('checkout.room')}</h4>
      <ul className="checkout-facts">
        <li>{fare.roomName}</li>
        <li>{bedTypeLabel(fare.bedType, t)}</li>
        <li>{boardLabel(fare.board, t)}</li>
      </ul>
      <h4>{t('checkout.cancellation')}</h4>
      <ol className="checkout-timeline">
        {refundable && freeCancellationUntil ? (
          <>
            <li>
              {t('checkout.freeUntil', {
                when: hotelDateTime(freeCancellationUntil, fare.timeZone, format, t),
              })}
            </li>
            <li>
              {t('checkout.feeUntilCheckIn', {
                checkIn: checkInDate,
                fee: format.money(fare.nightlyPrice, fare.currency),
              })}
            </li>
          </>
        ) : refundable ? (
          <li>{t('checkout.freeUntilCheckIn', { checkIn: checkInDate })}</li>
        ) : (
          <li>{t('checkout.nonRefundable')}</li>
        )}
        <li>{t('checkout.fromCheckIn')}</li>
      </ol>
      <h4>{t('checkout.paidAtHotel')}</h4>
      <p className="small">
        {fare.dueAtProperty && fare.dueAtProperty.amount > 0 ? (
          <RichMessage
            id="checkout.dueAtHotel"
            values={{
              amount: format.money(fare.dueAtProperty.amount, fare.dueAtProperty.currency),
              description: dueAtPropertyText(fare.dueAtProperty, t).text,
            }}
            components={{ 0: dueAtPropertyText(fare.dueAtProperty, t).lang ? HOTEL_WORDS : <span /> }}
          />
        ) : (
          t('checkout.nothingDueAtHotel')
        )}
      </p>
    </div>
  );
}
