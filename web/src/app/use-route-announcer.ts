import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side navigation, moves focus to the new page's heading (or main) and returns its
 * title for a polite announcement, as a full page load would for screen-reader users.
 */
export function useRouteAnnouncer(): string {
  const { pathname } = useLocation();
  const [announcement, setAnnouncement] = useState('');
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const frame = requestAnimationFrame(() => {
      const main = document.getElementById('main');
      const heading = main?.querySelector('h1');
      if (heading) {
        heading.setAttribute('tabindex', '-1');
        heading.focus();
      } else {
        main?.focus();
      }
      setAnnouncement(heading?.textContent ?? document.title);
    });
    return () => cancelAnimationFrame(frame);
  }, [pathname]);

  return announcement;
}
