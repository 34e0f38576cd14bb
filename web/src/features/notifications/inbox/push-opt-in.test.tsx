// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { testQueryClient } from '../../../test-support/render-app.tsx';
import { stubFetch } from '../../../test-support/stub-fetch.ts';
import { PushOptIn } from './push-opt-in.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

/** A browser whose push service refuses the subscription with the given DOMException. */
function browserRefusing(name: string, message: string): void {
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, {
      permission: 'default',
      requestPermission: () => Promise.resolve('granted'),
    }),
  );
  const registration = {
    pushManager: {
      getSubscription: () => Promise.resolve(null),
      subscribe: () => Promise.reject(new DOMException(message, name)),
    },
  };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: () => Promise.resolve(registration),
      ready: Promise.resolve(registration),
      getRegistration: () => Promise.resolve(undefined),
    },
  });
  stubFetch(() => ({
    json: {
      publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
    },
  }));
}

function renderOptIn(): void {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <PushOptIn />
    </QueryClientProvider>,
  );
}

describe('PushOptIn when the browser refuses', () => {
  it('says what happened and what the traveler can do, with no "try again" that cannot help', async () => {
    browserRefusing('NotAllowedError', 'Registration failed - permission denied');
    renderOptIn();
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on alerts' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This browser did not let Wayfare turn on alerts');
    expect(alert).toHaveTextContent('Allow notifications for Wayfare in the browser’s site settings');
    expect(alert).not.toHaveTextContent('Registration failed');
    expect(alert).not.toHaveTextContent(/usually temporary/i);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('offers to try again when the push service could not be reached', async () => {
    browserRefusing('AbortError', 'Registration failed - push service error');
    renderOptIn();
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on alerts' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('could not reach its push service');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
