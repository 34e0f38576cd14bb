import { useCallback, type RefCallback } from 'react';

/**
 * A ref that moves focus to its element the moment the element appears: the message that reports an
 * action's outcome takes the focus that the action's button lost (disabled while it ran, or gone with
 * the state it changed), instead of focus dropping to the page. The element needs tabIndex={-1}.
 */
export function useFocusOnAppear<T extends HTMLElement>(): RefCallback<T> {
  return useCallback((element: T | null) => {
    element?.focus();
  }, []);
}
