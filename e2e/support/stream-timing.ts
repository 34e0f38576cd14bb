import { expect, type Page } from '@playwright/test';

/**
 * Ordering seen from inside the page, where it happens: when the first element matching `selector`
 * was added to the document, what its list's aria-busy said at that moment, and when the body of a
 * streamed response finished arriving (Resource Timing's responseEnd). Playwright's own request events,
 * and its assertions, reach the test later than the page sees them: by then a short stream may be over.
 */
export async function watchFirstAppearance(page: Page, name: string, selector: string): Promise<void> {
  await page.evaluate(
    ({ name, selector }) => {
      const marks = ((window as unknown as { __firstSeen?: Record<string, number> }).__firstSeen ??= {});
      const busy = ((
        window as unknown as { __busyWhenSeen?: Record<string, string | null> }
      ).__busyWhenSeen ??= {});
      const check = () => {
        if (marks[name] !== undefined) return;
        const first = document.querySelector(selector);
        if (!first) return;
        marks[name] = performance.now();
        busy[name] = first.closest('[aria-busy]')?.getAttribute('aria-busy') ?? null;
      };
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
      check();
    },
    { name, selector },
  );
}

export interface StreamOrder {
  firstShownAt: number;
  /** The aria-busy of the list the first element was shown in, as it was then. */
  busyWhenFirstShown: string | null;
  streamStartedAt: number;
  streamEndedAt: number;
}

/** Now, on the page's clock (performance.now()), to tell later requests from earlier ones. */
export function pageClock(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/**
 * Waits until both moments are known, for the first response whose URL ends with `urlEnd` and whose
 * request started after `since` (see pageClock).
 */
export async function streamOrder(page: Page, name: string, urlEnd: string, since = 0): Promise<StreamOrder> {
  let order: StreamOrder | null = null;
  await expect
    .poll(async () => {
      order = await page.evaluate(
        ({ name, urlEnd, since }) => {
          const shown = (window as unknown as { __firstSeen?: Record<string, number> }).__firstSeen?.[name];
          const busy =
            (window as unknown as { __busyWhenSeen?: Record<string, string | null> }).__busyWhenSeen?.[
              name
            ] ?? null;
          const entries = performance
            .getEntriesByType('resource')
            .filter((entry): entry is PerformanceResourceTiming => entry.name.endsWith(urlEnd))
            .filter((entry) => entry.startTime >= since);
          const stream = entries[0];
          if (shown === undefined || !stream) return null;
          return {
            firstShownAt: shown,
            busyWhenFirstShown: busy,
            streamStartedAt: stream.responseStart,
            streamEndedAt: stream.responseEnd,
          };
        },
        { name, urlEnd, since },
      );
      return order;
    })
    .not.toBeNull();
  return order as unknown as StreamOrder;
}
