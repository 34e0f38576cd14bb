import { expect, type Page } from '@playwright/test';

/**
 * Ordering seen from inside the page, where it happens: when the first element matching `selector`
 * was added to the document, and when the body of a streamed response finished arriving (Resource
 * Timing's responseEnd). Playwright's own request events reach the test later than the page sees them.
 */
export async function watchFirstAppearance(page: Page, name: string, selector: string): Promise<void> {
  await page.evaluate(
    ({ name, selector }) => {
      const marks = ((window as unknown as { __firstSeen?: Record<string, number> }).__firstSeen ??= {});
      const check = () => {
        if (marks[name] === undefined && document.querySelector(selector)) marks[name] = performance.now();
      };
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
      check();
    },
    { name, selector },
  );
}

export interface StreamOrder {
  firstShownAt: number;
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
          const entries = performance
            .getEntriesByType('resource')
            .filter((entry): entry is PerformanceResourceTiming => entry.name.endsWith(urlEnd))
            .filter((entry) => entry.startTime >= since);
          const stream = entries[0];
          if (shown === undefined || !stream) return null;
          return {
            firstShownAt: shown,
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
