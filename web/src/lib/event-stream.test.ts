// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEventStream, readResumableEventStream, STREAM_RESUMES, type StreamEnd } from './event-stream.ts';
import { BffError } from './bff-error.ts';
import { envelope, stubFetch, type StubbedResponse } from '../test-support/stub-fetch.ts';

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

  it('reports a dropped connection as truncated, with no reason, after the events before the drop', async () => {
    stubFetch(() => ({ chunks: ['event: fare\ndata: {"n":1}\n\n'], failAfterChunks: true }));
    const { events, end } = collect();
    await expect(end).resolves.toEqual({ kind: 'truncated' });
    expect(events).toEqual([{ event: 'fare', data: '{"n":1}' }]);
  });

  it('reports the BFF’s own truncated event with its reason', async () => {
    stubFetch(() => ({ chunks: ['event: truncated\ndata: {"reason":"upstream-failed"}\n\n'] }));
    await expect(collect().end).resolves.toEqual({ kind: 'truncated', reason: 'upstream-failed' });
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

describe('readResumableEventStream', () => {
  const CUT: StubbedResponse = { chunks: ['event: fare\ndata: {"n":1}\n\n'], failAfterChunks: true };
  const DONE: StubbedResponse = { chunks: ['event: fare\ndata: {"n":2}\n\n', 'event: done\ndata: {}\n\n'] };

  /** Answers each attempt in turn; records the events and the resumes in one list. */
  function resumable(answers: StubbedResponse[]) {
    let calls = 0;
    const fetchMock = stubFetch(() => answers[Math.min(calls++, answers.length - 1)] as StubbedResponse);
    const seen: string[] = [];
    const end: Promise<StreamEnd> = readResumableEventStream('/api/stays/priced-search', {
      method: 'POST',
      body: {},
      onEvent: (message) => seen.push(message.data),
      onResume: (attempt) => seen.push(`resume ${attempt}`),
      random: () => 0,
    });
    return { end, seen, calls: () => fetchMock.mock.calls.length };
  }

  it('opens a stream whose connection dropped again, and ends with the new stream’s end', async () => {
    const { end, seen, calls } = resumable([CUT, DONE]);
    await expect(end).resolves.toEqual({ kind: 'done' });
    expect(seen).toEqual(['{"n":1}', 'resume 1', '{"n":2}']);
    expect(calls()).toBe(2);
  });

  it('resumes after the instance says it is going away', async () => {
    const { end, calls } = resumable([
      { chunks: ['event: truncated\ndata: {"reason":"server-shutdown"}\n\n'] },
      DONE,
    ]);
    await expect(end).resolves.toEqual({ kind: 'done' });
    expect(calls()).toBe(2);
  });

  it('ends as truncated when every attempt is cut', async () => {
    const { end, seen, calls } = resumable([CUT]);
    await expect(end).resolves.toEqual({ kind: 'truncated' });
    expect(calls()).toBe(1 + STREAM_RESUMES);
    expect(seen.filter((entry) => entry.startsWith('resume'))).toEqual(['resume 1', 'resume 2', 'resume 3']);
  });

  it('counts a retryable refusal of a resumed stream (the front’s 502) as one more cut', async () => {
    const { end, calls } = resumable([CUT, { status: 502, json: null }, DONE]);
    await expect(end).resolves.toEqual({ kind: 'done' });
    expect(calls()).toBe(3);
  });

  it('gives up at once when a resumed stream is refused for good, as a cut stream', async () => {
    const { end, calls } = resumable([CUT, { status: 401, json: envelope('UNAUTHORIZED', 'BLOCKED') }, DONE]);
    await expect(end).resolves.toEqual({ kind: 'truncated' });
    expect(calls()).toBe(2);
  });

  it('does not open again what the BFF ended: its travel API’s cut, an error, a refusal of the first attempt', async () => {
    for (const first of [
      { chunks: ['event: truncated\ndata: {"reason":"upstream-failed"}\n\n'] },
      { chunks: [`event: error\ndata: ${JSON.stringify(envelope('PROVIDER_ERROR', 'RETRY_LATER'))}\n\n`] },
      { status: 503, json: envelope('SERVICE_UNAVAILABLE', 'RETRY_LATER') },
    ]) {
      const { end, calls } = resumable([first, DONE]);
      expect((await end).kind).not.toBe('done');
      expect(calls()).toBe(1);
      vi.unstubAllGlobals();
    }
  });

  it('stops quietly when the app aborts during the pause before a resume', async () => {
    const fetchMock = stubFetch(() => CUT);
    const controller = new AbortController();
    const end = readResumableEventStream('/api/stays/priced-search', {
      method: 'POST',
      body: {},
      signal: controller.signal,
      // After the cut, which comes within the tasks in hand, and before the pause (125 ms at least) is over.
      onEvent: () => setTimeout(() => controller.abort(), 0),
      onResume: () => {
        throw new Error('no resume after an abort');
      },
    });
    await expect(end).resolves.toEqual({ kind: 'aborted' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
