import { useEffect } from 'react';

/**
 * What the page in view shows of the traveler's news, so that a toast does not say it a second time:
 * a trip's timeline follows its travel events live, a booking's page shows that
 * booking's state, and checkout leads to the confirmation of the booking it makes.
 */
export type PageSubject =
  { kind: 'trip'; tripId: string } | { kind: 'booking'; reference: string } | { kind: 'checkout' };

let subjects: readonly PageSubject[] = [];
const listeners = new Set<() => void>();

function setSubjects(next: readonly PageSubject[]): void {
  subjects = next;
  for (const listener of listeners) listener();
}

/** The page says it shows `subject` (null: nothing yet, its data still loading) while it is mounted. */
export function useShownOnPage(subject: PageSubject | null): void {
  const key = subject ? JSON.stringify(subject) : null;
  useEffect(() => {
    if (key === null) return undefined;
    const shown = JSON.parse(key) as PageSubject;
    setSubjects([...subjects, shown]);
    return () => setSubjects(subjects.filter((other) => other !== shown));
  }, [key]);
}

/** Everything the pages in view say they show. */
export function subjectsOnPage(): readonly PageSubject[] {
  return subjects;
}

/** Calls `listener` with what the pages show each time that changes; returns how to stop. */
export function onSubjectsOnPage(listener: (shown: readonly PageSubject[]) => void): () => void {
  const call = () => listener(subjects);
  listeners.add(call);
  return () => {
    listeners.delete(call);
  };
}
