import {
  STAY_FARES_EVENTS,
  StayFareSchema,
  type StayFare,
  type StayFaresRequestInput,
} from '../../../../shared/upstream/stays.ts';
import { readEventStream, type StreamEnd } from '../../lib/event-stream.ts';
import { safeJson } from '../../lib/safe-json.ts';

export interface StreamStayFaresOptions {
  signal: AbortSignal;
  onFare: (fare: StayFare) => void;
}

/** Streams the fares of one property (POST /api/stays/fares); each fare is handed over as it arrives. */
export function streamStayFares(
  body: StayFaresRequestInput,
  { signal, onFare }: StreamStayFaresOptions,
): Promise<StreamEnd> {
  return readEventStream('/api/stays/fares', {
    method: 'POST',
    body,
    signal,
    onEvent: (message) => {
      if (message.event !== STAY_FARES_EVENTS.fare) return;
      const parsed = StayFareSchema.safeParse(safeJson(message.data));
      if (parsed.success) onFare(parsed.data);
    },
  });
}
