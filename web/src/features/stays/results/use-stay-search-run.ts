import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { StaySearch } from '../search/stay-search-params.ts';
import type { StayCurrency } from '../stay-currency.ts';
import {
  INITIAL_SNAPSHOT,
  startStaySearchRun,
  type StaySearchRun,
  type StaySearchSnapshot,
} from './stay-search-run.ts';

/** How long a finished search is shown again, without searching and pricing again, on coming back to it. */
export const FINISHED_SEARCH_FRESH_MS = 10 * 60 * 1000;
const REMEMBERED_SEARCHES = 5;
/**
 * A streaming search's snapshots are drawn at most this often: the hotels and their rates arrive as
 * dozens of events a second, and each drawn snapshot sorts, filters and lays out the whole list again,
 * which on a phone's slow CPU holds the main thread for tens of milliseconds each time. What arrives in
 * between is drawn with the next one, so nothing is lost and nothing waits longer than this.
 */
export const SNAPSHOT_DRAW_INTERVAL_MS = 150;

/** The last finished run of each recent search (by its URL), for "back to the search results". */
const finishedSearches = new Map<string, { snapshot: StaySearchSnapshot; at: number }>();

const searchKeyOf = (runKey: string) => runKey.split('#')[0] ?? runKey;

function rememberFinished(runKey: string, snapshot: StaySearchSnapshot): void {
  const key = searchKeyOf(runKey);
  finishedSearches.delete(key);
  finishedSearches.set(key, { snapshot, at: Date.now() });
  const oldest = finishedSearches.keys().next();
  if (finishedSearches.size > REMEMBERED_SEARCHES && !oldest.done) finishedSearches.delete(oldest.value);
}

function freshFinished(runKey: string): StaySearchSnapshot | undefined {
  const entry = finishedSearches.get(searchKeyOf(runKey));
  return entry && Date.now() - entry.at < FINISHED_SEARCH_FRESH_MS ? entry.snapshot : undefined;
}

/** Forgets every remembered search (tests, and a traveler signing out). */
export function forgetFinishedSearches(): void {
  finishedSearches.clear();
}

/** A finished search worth showing again: complete, and every hotel answered. */
const settled = (snapshot: StaySearchSnapshot) =>
  snapshot.phase === 'complete' &&
  !snapshot.truncated &&
  Object.values(snapshot.prices).every((price) => price.state !== 'failed');

export interface StaySearchRunState {
  snapshot: StaySearchSnapshot;
  /** Prices one failed hotel again. */
  retry: (searchSolutionId: string) => void;
}

/**
 * Runs the stay search for `runKey` and returns its live snapshot. Coming back to a search that finished a
 * few minutes ago (the results page opened again from a hotel's page) shows its results as they were, with
 * no new search and no new pricing; asking to search again (a new run key) always runs.
 */
export function useStaySearchRun(
  search: StaySearch,
  runKey: string,
  currency?: StayCurrency,
): StaySearchRunState {
  // Decided once, when the results mount: the run key whose finished results are shown again, if any.
  const [mounted] = useState(() => {
    const finished = freshFinished(runKey);
    return { snapshot: finished ?? INITIAL_SNAPSHOT, reusedKey: finished ? runKey : null };
  });
  const [snapshot, setSnapshot] = useState(mounted.snapshot);
  const [searchFor, setSearchFor] = useState(runKey);
  if (searchFor !== runKey) {
    setSearchFor(runKey);
    setSnapshot(INITIAL_SNAPSHOT);
  }
  const run = useRef<StaySearchRun | null>(null);
  useEffect(() => {
    if (mounted.reusedKey === runKey) return undefined;
    let latest: StaySearchSnapshot | undefined;
    let drawTimer: ReturnType<typeof setTimeout> | undefined;
    const draw = () => {
      drawTimer = undefined;
      const next = latest;
      latest = undefined;
      // Drawn as a transition: a snapshot that arrives while the last one is drawing replaces it, and
      // drawing the cards yields to the traveler's input (a tap, a scroll, typing) instead of holding
      // the main thread for as long as a whole list takes.
      if (next) startTransition(() => setSnapshot(next));
    };
    const started = startStaySearchRun(
      search,
      (next) => {
        if (settled(next)) rememberFinished(runKey, next);
        latest = next;
        drawTimer ??= setTimeout(draw, SNAPSHOT_DRAW_INTERVAL_MS);
      },
      currency,
    );
    run.current = started;
    return () => {
      clearTimeout(drawTimer);
      started.stop();
    };
    // The run key stands for the search (and the run number): a new key is a new run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runKey]);
  const retry = useCallback((searchSolutionId: string) => run.current?.retry(searchSolutionId), []);
  return { snapshot, retry };
}
