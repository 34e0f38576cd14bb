import type { Formatters } from '../../lib/intl-format.ts';
import type { ConnectionRisk } from './connection-risks.ts';
import { zoneName } from './segment-kinds.ts';

/** Why a segment is at risk, in words a traveler can act on. */
export function describeRisk(risk: ConnectionRisk, format: Formatters): string {
  switch (risk.kind) {
    case 'short-connection': {
      const { arrival, availableMinutes, neededMinutes } = risk;
      const zone = arrival.destination.timeZone;
      const at = `${format.time(arrival.estimatedArrival, zone)} ${zoneName(arrival.estimatedArrival, zone, format.locale)}`;
      const left =
        availableMinutes <= 0
          ? 'after this starts'
          : `leaving ${format.duration(availableMinutes)} to get here`;
      return `${arrival.title} now arrives at ${at}, ${left}; allow at least ${format.duration(neededMinutes)}.`;
    }
    case 'late-check-in': {
      const { arrival } = risk;
      const zone = arrival.destination.timeZone;
      return `${arrival.title} now arrives at ${format.time(arrival.estimatedArrival, zone)}, so you reach the hotel after midnight. Tell the hotel you are arriving late, or the first night may be cancelled as a no-show.`;
    }
    case 'after-cancellation':
      return `${risk.cancelled.title} is cancelled, so you may not get here. Rebook it or change this booking.`;
  }
}
