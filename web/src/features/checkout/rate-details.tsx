import type { StayFare } from '#shared/api/stays.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { boardLabel } from '../stays/board-label.ts';
import { useT } from '../../i18n/use-t.ts';

/** "Lisbon time" for Europe/Lisbon: the zone a hotel's deadlines are given in. */
export function zoneLabel(timeZone: string): string {
  return `${(timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ')} time`;
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
  const zone = fare.timeZone;
  const at = (instant: string) =>
    zone ? `${format.dateTime(instant, zone)} (${zoneLabel(zone)})` : format.dateTime(instant);
  return (
    <div className="checkout-details stack-sm">
      <h4>Room</h4>
      <ul className="checkout-facts">
        <li>{fare.roomName}</li>
        <li>{fare.bedType}</li>
        <li>{boardLabel(fare.board, t)}</li>
      </ul>
      <h4>Cancellation</h4>
      <ol className="checkout-timeline">
        {refundable && freeCancellationUntil ? (
          <>
            <li>Until {at(freeCancellationUntil)}: free cancellation, full refund</li>
            <li>
              After that until check-in on {format.calendarDate(checkIn, 'long')}: a fee of the first night,{' '}
              {format.money(fare.nightlyPrice, fare.currency)}
            </li>
          </>
        ) : refundable ? (
          <li>Free cancellation until check-in on {format.calendarDate(checkIn, 'long')}</li>
        ) : (
          <li>Non-refundable: cancelling keeps the whole price</li>
        )}
        <li>From check-in: no cancellation</li>
      </ol>
      <h4>Paid at the hotel</h4>
      <p className="small">
        {fare.dueAtProperty && fare.dueAtProperty.amount > 0
          ? `${format.money(fare.dueAtProperty.amount, fare.dueAtProperty.currency)}: ${fare.dueAtProperty.description}`
          : 'Nothing is due at the hotel.'}
      </p>
    </div>
  );
}
