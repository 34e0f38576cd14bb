import {
  STAY_FARES_EVENTS,
  StayFareSchema,
  type StayFare,
  type StayFaresRequestInput,
} from '#shared/api/stays.ts';
import { readEventStream, type StreamEnd } from '../../lib/event-stream.ts';
import { safeJson } from '../../lib/safe-json.ts';
import { unreadableResponse } from '../../lib/bff-error.ts';

export interface StreamStayFaresOptions {
  signal: AbortSignal;
  onFare: (fare: StayFare) => void;
}

/** Streams the fares of one property (POST /api/stays/fares); each fare is handed over as it arrives. */
export async function streamStayFares(
  body: StayFaresRequestInput,
  { signal, onFare }: StreamStayFaresOptions,
): Promise<StreamEnd> {
  let fares = 0;
  let unreadable = 0;
  const end = await readEventStream('/api/stays/fares', {
    method: 'POST',
    body,
    signal,
    onEvent: (message) => {
      if (message.event !== STAY_FARES_EVENTS.fare) return;
      const parsed = StayFareSchema.safeParse(safeJson(message.data));
      if (!parsed.success) {
        unreadable += 1;
        return;
      }
      fares += 1;
      onFare(parsed.data);
    },
  });
  // Rates that arrived but could not be read are not "no rooms": say the answer was unexpected.
  if (end.kind === 'done' && fares === 0 && unreadable > 0) {
    return { kind: 'error', error: unreadableResponse(200, undefined) };
  }
  return end;
}
