import type { PaymentMethod } from '#shared/upstream/booking-operations.ts';
import { createRandom } from '../random.ts';

const CARDS = [
  { brand: 'Visa', bookingProfile: false, label: 'Company Visa' },
  { brand: 'American Express', bookingProfile: false, label: 'Company American Express' },
  { brand: 'Mastercard', bookingProfile: true, label: 'Personal Mastercard' },
  { brand: 'Visa', bookingProfile: true, label: 'Personal Visa' },
] as const;

/**
 * The payment methods the service holds for a traveler: two company cards (business travel) and two
 * personal cards (personal travel), the same for the same traveler. Only a reference and what a traveler
 * recognises (brand, last four digits, expiry) ever leave the service.
 */
export function paymentMethodsOf(
  seed: string,
  travelerId: string,
  holderName: string,
  now: Date,
): PaymentMethod[] {
  return CARDS.map((card, index) => {
    const random = createRandom(seed, 'payment-method', travelerId, index);
    const id = random.uuid().replaceAll('-', '').slice(0, 24);
    return {
      paymentMethodId: `pm_${id}`,
      type: 'card',
      brand: card.brand,
      last4: String(random.int(0, 9999)).padStart(4, '0'),
      expiryMonth: random.int(1, 12),
      expiryYear: now.getUTCFullYear() + random.int(1, 4),
      holderName,
      bookingProfile: card.bookingProfile,
      label: card.label,
    };
  });
}
