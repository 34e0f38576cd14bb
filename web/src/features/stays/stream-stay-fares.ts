import { STAY_FARES_EVENTS } from '#shared/api/stay-values.ts';
import { StayFareSchema, type StayFare, type StayFaresRequestInput } from '#shared/api/stays.ts';
import { readResumableEventStream, type StreamEnd } from '../../lib/event-stream.ts';
import { safeJson } from '../../lib/safe-json.ts';
import { unreadableResponse } from '../../lib/bff-error.ts';
import { faresWhileResuming } from './fares-while-resuming.ts';

export interface StreamStayFaresOptions {
  signal: AbortSignal;
  /** The property's rates so far, each time one arrives (and once more if a resumed stream changed them). */
  onFares: (fares: readonly StayFare[]) => void;
}

/**
 * Streams the fares of one property (POST /api/stays/fares); the rates so far are handed over as each
 * arrives. A stream whose connection is cut is opened again on its own (readResumableEventStream): the
 * rates shown stay, and those of the new stream replace them once it ends.
 */
export async function streamStayFares(
  body: StayFaresRequestInput,
  { signal, onFares }: StreamStayFaresOptions,
): Promise<StreamEnd> {
  let fares: StayFare[] = [];
  let carried: StayFare[] = [];
  let unreadable = 0;
  const end = await readResumableEventStream('/api/stays/fares', {
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
      fares = [...fares, parsed.data];
      onFares(faresWhileResuming(fares, carried));
    },
    onResume: () => {
      carried = faresWhileResuming(fares, carried);
      fares = [];
      unreadable = 0;
    },
  });
  // A resumed stream's rates are the property's: those shown only before the cut go.
  if (end.kind === 'done' && carried.length > 0) onFares(fares);
  // Rates that arrived but could not be read are not "no rooms": say the answer was unexpected.
  if (end.kind === 'done' && fares.length === 0 && unreadable > 0) {
    return { kind: 'error', error: unreadableResponse(200, undefined) };
  }
  return end;
}
