import { useEffect, useState } from 'react';
import { INITIAL_SNAPSHOT, startStaySearchRun, type StaySearchSnapshot } from './stay-search-run.ts';
import type { StaySearch } from './stay-search-params.ts';

/** Runs the stay search for `search` (again whenever `runKey` changes) and returns its latest snapshot. */
export function useStaySearchRun(search: StaySearch, runKey: string): StaySearchSnapshot {
  const [snapshot, setSnapshot] = useState(INITIAL_SNAPSHOT);
  const [searchFor, setSearchFor] = useState(runKey);
  if (searchFor !== runKey) {
    setSearchFor(runKey);
    setSnapshot(INITIAL_SNAPSHOT);
  }
  useEffect(() => {
    const run = startStaySearchRun(search, setSnapshot);
    return () => run.stop();
    // The run key stands for the search (and the run number): a new key is a new run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runKey]);
  return snapshot;
}
