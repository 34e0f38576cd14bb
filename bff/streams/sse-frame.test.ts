import { describe, expect, it } from 'vitest';
import { SseFrame } from './sse-frame.ts';

describe('SseFrame', () => {
  it('holds the UTF-8 bytes of the event and the same bytes framed as one HTTP/1.1 chunk', () => {
    const frame = new SseFrame('data: {"city":"Zürich"}\n\n');
    expect(frame.bytes.toString('utf8')).toBe('data: {"city":"Zürich"}\n\n');
    const size = frame.bytes.length;
    expect(frame.chunk.toString('utf8')).toBe(`${size.toString(16)}\r\ndata: {"city":"Zürich"}\n\n\r\n`);
  });

  it('encodes once, however many streams it is written to', () => {
    const frame = new SseFrame(': heartbeat\n\n');
    expect(frame.chunk).toBe(frame.chunk);
    expect(frame.bytes).toBe(frame.bytes);
  });
});
