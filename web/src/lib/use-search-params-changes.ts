import { useRef } from 'react';
import { useSearchParams } from 'react-router';

/** Builds the next query string from the latest one this page asked for. */
export type SearchParamsChange = (latest: URLSearchParams) => URLSearchParams;

/**
 * The page's query string, and a setter whose changes build on each other. react-router's own setter
 * builds on the query string of the last render, so a second change asked before the navigation of the
 * first has ended (two date fields typed one after the other) would drop the first: here each change
 * builds on the last one asked, until the router shows it.
 */
export function useSearchParamsChanges(): [URLSearchParams, (change: SearchParamsChange) => void] {
  const [params, setParams] = useSearchParams();
  const asked = useRef<{ over: URLSearchParams; next: URLSearchParams } | null>(null);
  const change = (build: SearchParamsChange) => {
    const latest = asked.current?.over === params ? asked.current.next : params;
    const next = build(latest);
    asked.current = { over: params, next };
    setParams(next);
  };
  return [params, change];
}
