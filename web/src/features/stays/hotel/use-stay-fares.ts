import { useEffect, useState } from 'react';
import type { StayFare, StayFaresRequestInput } from '#shared/api/stays.ts';
import type { StreamEnd } from '../../../lib/event-stream.ts';
import { streamStayFares } from '../stream-stay-fares.ts';

export interface StayFaresState {
  fares: StayFare[];
  /** undefined while the stream is open. */
  end: StreamEnd | undefined;
}

const OPEN: StayFaresState = { fares: [], end: undefined };

/**
 * Streams a property's fares, first rate visible as soon as it arrives. `prepare` runs before the
 * stream opens (a guest session for shared links). A new `runKey` is a new run; only a stream whose
 * connection was cut is opened again by itself (streamStayFares).
 */
export function useStayFares(
  request: StayFaresRequestInput | null,
  runKey: string,
  prepare?: (signal: AbortSignal) => Promise<StreamEnd | undefined>,
): StayFaresState {
  const [state, setState] = useState(OPEN);
  const [stateFor, setStateFor] = useState(runKey);
  if (stateFor !== runKey) {
    setStateFor(runKey);
    setState(OPEN);
  }

  useEffect(() => {
    if (!request) return;
    const controller = new AbortController();
    const run = async () => {
      const failed = await prepare?.(controller.signal);
      if (failed) {
        if (failed.kind !== 'aborted') setState((current) => ({ ...current, end: failed }));
        return;
      }
      const end = await streamStayFares(request, {
        signal: controller.signal,
        onFares: (fares) => setState((current) => ({ ...current, fares: [...fares] })),
      });
      if (end.kind !== 'aborted') setState((current) => ({ ...current, end }));
    };
    void run();
    return () => controller.abort();
    // The run key stands for the request: a new key is a new run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runKey]);

  return state;
}
