// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** A browser with Paint Timing, whose first contentful paint the test makes happen. */
function browserWithPaintTiming({ paintedAlready = false } = {}) {
  const observers: ((entries: { getEntriesByName: (name: string) => unknown[] }) => void)[] = [];
  const paint = () => {
    for (const observer of observers)
      observer({
        getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{ name }] : []),
      });
  };
  class FakePerformanceObserver {
    static supportedEntryTypes = ['mark', 'measure', 'paint'];
    readonly #callback: (entries: { getEntriesByName: (name: string) => unknown[] }) => void;
    constructor(callback: (entries: { getEntriesByName: (name: string) => unknown[] }) => void) {
      this.#callback = callback;
    }
    observe({ buffered }: { buffered?: boolean }) {
      observers.push(this.#callback);
      if (buffered && paintedAlready) queueMicrotask(paint);
    }
    disconnect() {
      observers.splice(observers.indexOf(this.#callback), 1);
    }
  }
  vi.stubGlobal('PerformanceObserver', FakePerformanceObserver);
  return { paint, observing: () => observers.length };
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
}

async function renderProbe() {
  const { useAfterFirstPaint } = await import('./after-first-paint.ts');
  function Probe() {
    return <p>{useAfterFirstPaint() ? 'painted' : 'not yet'}</p>;
  }
  render(<Probe />);
}

describe('useAfterFirstPaint', () => {
  it('is false until the first contentful paint, then true, and stops observing', async () => {
    setVisibility('visible');
    const browser = browserWithPaintTiming();
    await renderProbe();
    expect(screen.getByText('not yet')).toBeInTheDocument();
    act(browser.paint);
    expect(screen.getByText('painted')).toBeInTheDocument();
    expect(browser.observing()).toBe(0);
  });

  it('knows of a paint that happened before the page asked', async () => {
    setVisibility('visible');
    browserWithPaintTiming({ paintedAlready: true });
    await renderProbe();
    expect(await screen.findByText('painted')).toBeInTheDocument();
  });

  it('does not wait in a hidden tab, which paints nothing', async () => {
    setVisibility('hidden');
    browserWithPaintTiming();
    await renderProbe();
    expect(screen.getByText('painted')).toBeInTheDocument();
  });

  it('stops waiting when the tab is hidden before it painted', async () => {
    setVisibility('visible');
    browserWithPaintTiming();
    await renderProbe();
    expect(screen.getByText('not yet')).toBeInTheDocument();
    setVisibility('hidden');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(screen.getByText('painted')).toBeInTheDocument();
  });

  it('stops waiting when a visible tab has not painted a while after the app started', async () => {
    vi.useFakeTimers();
    setVisibility('visible');
    const browser = browserWithPaintTiming();
    const { PAINT_WAIT_MS } = await import('./after-first-paint.ts');
    await renderProbe();
    act(() => {
      vi.advanceTimersByTime(PAINT_WAIT_MS - 1);
    });
    expect(screen.getByText('not yet')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('painted')).toBeInTheDocument();
    expect(browser.observing()).toBe(0);
  });

  it('does not wait in a browser without Paint Timing', async () => {
    setVisibility('visible');
    vi.stubGlobal('PerformanceObserver', undefined);
    await renderProbe();
    expect(screen.getByText('painted')).toBeInTheDocument();
  });
});
