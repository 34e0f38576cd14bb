import type { PaymentMethod } from '#shared/api/booking-operations.ts';
import type { BffError } from './bff-error.ts';

/** The card a PAYMENT_DECLINED names in its `reason`, among those on file; else the one the traveler paid with. */
export function declinedCard(
  error: BffError,
  methods: readonly PaymentMethod[],
  paidWith: PaymentMethod,
): PaymentMethod {
  const reason: Record<string, unknown> = error.body.reason ?? {};
  if (reason.code !== 'card_declined') return paidWith;
  const { paymentMethodId } = reason;
  return methods.find((method) => method.paymentMethodId === paymentMethodId) ?? paidWith;
}
