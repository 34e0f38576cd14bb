import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiJson } from './api-client.ts';
import { BffError } from './bff-error.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('starts a trace for each call, and a failed call’s error carries its trace id', async () => {
    const sent: Headers[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_path: string, init: RequestInit) => {
        sent.push(new Headers(init.headers));
        return Promise.resolve(
          Response.json(
            {
              error: {
                code: 'INTERNAL_ERROR',
                message: 'Something went wrong',
                details: [],
                recoveryAction: 'CONTACT_SUPPORT',
                retryAfterSeconds: null,
              },
            },
            { status: 500, headers: { 'X-Request-Id': 'req-1' } },
          ),
        );
      }),
    );
    const first = await apiJson('/api/profile').catch((error: unknown) => error);
    const second = await apiJson('/api/profile').catch((error: unknown) => error);

    const [one = '', two = ''] = sent.map((headers) => headers.get('traceparent') ?? '');
    expect(one).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(two).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(one.slice(3, 35)).not.toBe(two.slice(3, 35));
    expect(first).toBeInstanceOf(BffError);
    expect((first as BffError).traceId).toBe(one.slice(3, 35));
    expect((second as BffError).traceId).toBe(two.slice(3, 35));
  });

  it('asks fetch for the priority a call gives, and leaves it to the browser otherwise', async () => {
    const sent: RequestInit[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_path: string, init: RequestInit) => {
        sent.push(init);
        return Promise.resolve(Response.json({}));
      }),
    );
    await apiJson('/api/profile');
    await apiJson('/api/notifications', { priority: 'low' });

    expect(sent.map((init) => init.priority)).toEqual([undefined, 'low']);
  });
});
