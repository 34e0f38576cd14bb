import type { Translate } from '../../i18n/use-t.ts';
import type { BffError } from '../../lib/bff-error.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import { OutcomeNotice } from '../../components/outcome-notice.tsx';

/** A field of an error's `reason` when it is text (the BFF relays `reason` as the travel API sent it). */
const textOf = (reason: Record<string, unknown>, field: string): string | undefined => {
  const value = reason[field];
  return typeof value === 'string' ? value : undefined;
};
/** A field of an error's `reason` when it is a calendar date, YYYY-MM-DD. */
const dateOf = (reason: Record<string, unknown>, field: string): string | undefined => {
  const value = textOf(reason, field);
  return value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
};

/**
 * Why a booking conflicts, from the fields of the error's `reason` (never its English message): the
 * fields of BookingConflictReasonSchema (shared/upstream/booking-operations.ts), each read only when it
 * has its type, so that a reason this version cannot read is told as "another booking".
 */
export function conflictReason(error: BffError, format: Formatters, t: Translate): string {
  const reason: Record<string, unknown> = error.body.reason ?? {};
  const code = textOf(reason, 'code');
  const reference = textOf(reason, 'reference');
  const flightNumber = textOf(reason, 'flightNumber');
  const hotel = textOf(reason, 'hotel');
  const [date, checkIn, checkOut] = [
    dateOf(reason, 'date'),
    dateOf(reason, 'checkIn'),
    dateOf(reason, 'checkOut'),
  ];
  if (code === 'same_flight' && reference && flightNumber && date) {
    return t('checkout.conflict.same_flight', {
      flightNumber,
      reference,
      date: format.calendarDate(date, 'long'),
    });
  }
  if (code === 'overlapping_stay' && reference && hotel && checkIn && checkOut) {
    return t('checkout.conflict.overlapping_stay', {
      hotel,
      reference,
      checkIn: format.calendarDate(checkIn, 'long'),
      checkOut: format.calendarDate(checkOut, 'long'),
    });
  }
  if (code === 'provider_conflict') return t('checkout.conflict.provider_conflict');
  return t('checkout.conflict.other');
}

/** The offer expired: its price can no longer be booked, another choice can. */
export function ExpiredNotice({ onChooseAgain, t }: { onChooseAgain: () => void; t: Translate }) {
  return (
    <OutcomeNotice
      title={t('checkout.expired.title')}
      reason={t('checkout.expired.reason')}
      action={{ label: t('checkout.chooseAgain'), onClick: onChooseAgain }}
    />
  );
}
