// @vitest-environment jsdom
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { preloadable } from './preloadable.tsx';

afterEach(cleanup);

/** A component's code that arrives, or fails, when the test says. */
function codeOnDemand() {
  const requests: {
    resolve: (component: (props: { name: string }) => React.JSX.Element) => void;
    reject: (error: Error) => void;
  }[] = [];
  const form = preloadable<{ name: string }>(
    () => new Promise((resolve, reject) => requests.push({ resolve, reject })),
  );
  function Counter({ name }: { name: string }) {
    const [count, setCount] = useState(0);
    return (
      <button type="button" onClick={() => setCount(count + 1)}>
        {name} {count}
      </button>
    );
  }
  return { form, requests, Counter };
}

describe('preloadable', () => {
  it('draws under its Suspense fallback until the code arrives, and fetches the code once', async () => {
    const { form, requests, Counter } = codeOnDemand();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <form.Component name="Cabin" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeInTheDocument();
    void form.preload();
    expect(requests).toHaveLength(1);
    requests[0]?.resolve(Counter);
    await act(() => Promise.resolve());
    expect(screen.getByRole('button', { name: 'Cabin 0' })).toBeInTheDocument();
    expect(form.ready()).toBe(true);
  });

  it('draws at once, with no fallback, once the code has arrived', async () => {
    const { form, requests, Counter } = codeOnDemand();
    const loaded = form.preload();
    requests[0]?.resolve(Counter);
    await loaded;
    render(
      <Suspense fallback={<p>Loading</p>}>
        <form.Component name="Cabin" />
      </Suspense>,
    );
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cabin 0' }));
    expect(screen.getByRole('button', { name: 'Cabin 1' })).toBeInTheDocument();
  });

  it('runs an action at once when the code is there, and after the fetch otherwise, even a failed one', async () => {
    const { form, requests, Counter } = codeOnDemand();
    const ran: string[] = [];
    form.whenReady(() => ran.push('first'));
    expect(ran).toEqual([]);
    requests[0]?.reject(new Error('offline'));
    await act(() => Promise.resolve());
    expect(ran).toEqual(['first']);
    expect(form.ready()).toBe(false);

    // A failed fetch is asked again by the next call.
    form.whenReady(() => ran.push('second'));
    expect(requests).toHaveLength(2);
    requests[1]?.resolve(Counter);
    await act(() => Promise.resolve());
    expect(ran).toEqual(['first', 'second']);
    form.whenReady(() => ran.push('third'));
    expect(ran).toEqual(['first', 'second', 'third']);
  });
});
