import { lazy, useState, type ComponentType } from 'react';

/** A component whose code is fetched apart from its page's, when it is first needed or asked for ahead. */
export interface Preloadable<P> {
  /**
   * Draws the component: at once when its code has arrived, otherwise once it arrives (the nearest
   * Suspense boundary shows its fallback meanwhile). Which of the two is decided when it mounts, so a
   * drawn component never changes identity (and never loses its state) when the code arrives later.
   */
  Component: ComponentType<P>;
  /** Fetches the code, once; resolves when the component can draw at once, rejects when it could not be fetched (a later call tries again). */
  preload(): Promise<void>;
  /** Whether the code has arrived. */
  ready(): boolean;
  /**
   * Runs `action` (which draws the component) at once when the code has arrived, otherwise once it has
   * been fetched, or failed to be: the component then asks again, and its Suspense and error boundaries
   * say what happened. So an element that takes focus on mount has it in the same turn as the action.
   */
  whenReady(action: () => void): void;
}

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchCode = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await fetchCode() }));
  function Preloaded(props: P) {
    const [Drawn] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Drawn {...props} />;
  }
  return {
    Component: Preloaded,
    preload: async () => {
      await fetchCode();
    },
    ready: () => loaded !== undefined,
    whenReady: (action) => {
      if (loaded !== undefined) action();
      else void fetchCode().then(action, action);
    },
  };
}
