// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEventStream } from './event-stream.ts';
import { BffError } from './bff-error.ts';
import { envelope, stubFetch } from '../test-support/stub-fetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function collect(path = '/api/stays/fares', init: { signal?: AbortSignal } = {}) {
  const events: Array<{ event: string; data: string }> = [];
  const end = readEventStream(path, {
    method: 'POST',
    body: { propertyId: 'p' },
    signal: init.signal,
    onEvent: (message) => events.push({ event: message.event, data: message.data }),
  });
  return { events, end };
}

describe('readEventStream', () => {
  it('hands over events split across chunks, including CRLF split between chunks, and ends on done', async () => {
    stubFetch(() => ({
      chunks: [
        'event: fa',
        're\r',
        '\ndata: {"n":',
        '1}\r\n\r\nevent: fare\ndata: {"n":2}\n',
        '\nevent: done\ndata: {}\n\n',
      ],
    }));
    const { events, end } = collect();
    await expect(end).resolves.toEqual({ kind: 'done' });
    expect(events).toEqual([
      { event: 'fare', data: '{"n":1}' },
      { event: 'fare', data: '{"n":2}' },
    ]);
  });

  it('sends the anti-forgery header, asks for an event stream and posts the JSON body', async () => {
    const fetchMock = stubFetch(() => ({ chunks: ['event: done\ndata: {}\n\n'] }));
    await collect().end;
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/stays/fares');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.headers).toMatchObject({ 'X-Requested-With': 'wayfare', Accept: 'text/event-stream' });
    expect(init?.body).toBe('{"propertyId":"p"}');
  });

  it('ends with the envelope of an error event, without handing the error over as an event', async () => {
    const error = envelope('MAX_NIGHTS_EXCEEDED', 'FIX_INPUT', { message: 'At most 30 nights' });
    stubFetch(() => ({
      chunks: ['event: fare\ndata: {"n":1}\n\n', `event: error\ndata: ${JSON.stringify(error)}\n\n`],
    }));
    const { events, end } = collect();
    const result = await end;
    expect(events).toHaveLength(1);
    expect(result.kind).toBe('error');
    if (result.kind !== 'error') return;
    expect(result.error).toBeInstanceOf(BffError);
    expect(result.error.code).toBe('MAX_NIGHTS_EXCEEDED');
    expect(result.error.recoveryAction).toBe('FIX_INPUT');
  });

  it('reports a stream that ends without done as truncated, and drops the event cut off mid-way', async () => {
    stubFetch(() => ({ chunks: ['event: fare\ndata: {"n":1}\n\n', 'event: fare\ndata: {"n":'] }));
    const { events, end } = collect();
    await expect(end).resolves.toEqual({ kind: 'truncated' });
    expect(events).toEqual([{ event: 'fare', data: '{"n":1}' }]);
  });

  it('reports a dropped connection as truncated', async () => {
    stubFetch(() => ({ chunks: ['event: fare\ndata: {"n":1}\n\n'], failAfterChunks: true }));
    await expect(collect().end).resolves.toEqual({ kind: 'truncated' });
  });

  it('turns an error response before the stream opens into an error ending with its request id', async () => {
    stubFetch(() => ({
      status: 410,
      headers: { 'X-Request-Id': 'req-123' },
      json: envelope('OFFER_EXPIRED', 'CHANGE_SELECTION'),
    }));
    const result = await collect().end;
    expect(result.kind).toBe('error');
    if (result.kind !== 'error') return;
    expect(result.error.status).toBe(410);
    expect(result.error.code).toBe('OFFER_EXPIRED');
    expect(result.error.requestId).toBe('req-123');
  });

  it('stops quietly when the app aborts an open stream', async () => {
    stubFetch(() => ({ chunks: ['event: fare\ndata: {"n":1}\n\n'], open: true }));
    const controller = new AbortController();
    const { events, end } = collect('/api/stays/fares', { signal: controller.signal });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    controller.abort();
    await expect(end).resolves.toEqual({ kind: 'aborted' });
  });

  it('reads an unreadable error event as a retryable stream error', async () => {
    stubFetch(() => ({ chunks: ['event: error\ndata: not json\n\n'] }));
    const result = await collect().end;
    expect(result.kind === 'error' && result.error.recoveryAction).toBe('RETRY_NOW');
  });
});
