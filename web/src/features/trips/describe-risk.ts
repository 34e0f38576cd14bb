import type { Segment } from '#shared/api/trips.ts';
import type { Translate } from '../../i18n/use-t.ts';
import type { Formatters } from '../../lib/intl-format.ts';
import type { ConnectionRisk } from './connection-risks.ts';
import { segmentName } from '../../lib/segment-name.ts';
import { zoneName } from './segment-kinds.ts';

/** When a late segment now arrives: its day too when the delay moved it to another day. */
function arrivalTime(arrival: Segment, format: Formatters): string {
  return format.timeChange(arrival.scheduledArrival, arrival.estimatedArrival, arrival.destination.timeZone)
    .estimated;
}

/** Why a segment is at risk, in words a traveler can act on. */
export function describeRisk(risk: ConnectionRisk, format: Formatters, t: Translate): string {
  switch (risk.kind) {
    case 'short-connection': {
      const { arrival, nextKind, availableMinutes, neededMinutes } = risk;
      const zone = arrival.destination.timeZone;
      const at = `${arrivalTime(arrival, format)} ${zoneName(arrival.estimatedArrival, zone, format.locale)}`;
      const left =
        availableMinutes <= 0
          ? t('risk.afterThisStarts', { kind: nextKind })
          : t('risk.leaving', { kind: nextKind, duration: format.durationInWords(availableMinutes) });
      return t('risk.shortConnection', {
        title: segmentName(arrival, t).text,
        at,
        left,
        kind: nextKind,
        needed: format.durationInWords(neededMinutes),
      });
    }
    case 'late-check-in': {
      const { arrival } = risk;
      return t('risk.lateCheckIn', {
        title: segmentName(arrival, t).text,
        at: arrivalTime(arrival, format),
      });
    }
    case 'after-cancellation':
      return t('risk.afterCancellation', { title: segmentName(risk.cancelled, t).text });
  }
}
