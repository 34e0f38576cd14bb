import type { MessageId } from '../i18n/i18n.ts';
import type { Translate } from '../i18n/use-t.ts';

const BED_TYPES: Record<string, MessageId> = {
  Double: 'stays.bed.Double',
  Twin: 'stays.bed.Twin',
  Single: 'stays.bed.Single',
  Queen: 'stays.bed.Queen',
  King: 'stays.bed.King',
  'Double and bunk beds': 'stays.bed.Double and bunk beds',
};

/** The traveler's words for a room's bed type; a bed type the app does not know reads as the provider wrote it. */
export function bedTypeLabel(bedType: string, t: Translate): string {
  const known = BED_TYPES[bedType];
  return known ? t(known) : bedType;
}
