import { useEffect, useRef, useState } from 'react';

/** Seconds left from `seconds` down to 0, ticking once a second; calls onDone once at 0. */
export function useCountdown(seconds: number | null, onDone?: () => void): number | null {
  const [left, setLeft] = useState(seconds);
  const [startedFrom, setStartedFrom] = useState(seconds);
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  });

  if (startedFrom !== seconds) {
    setStartedFrom(seconds);
    setLeft(seconds);
  }

  useEffect(() => {
    if (left === null) return;
    if (left <= 0) {
      onDoneRef.current?.();
      return;
    }
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  return left;
}
