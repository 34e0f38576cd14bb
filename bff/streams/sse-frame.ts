const CRLF = Buffer.from('\r\n', 'latin1');

/**
 * One encoded SSE event or comment, turned into bytes once however many streams it is written to.
 * A broadcast to N browsers then costs N socket writes of the same Buffer: no per-stream string
 * building, UTF-8 encoding or HTTP/1.1 chunk framing.
 */
export class SseFrame {
  readonly text: string;
  #bytes: Buffer | undefined;
  #chunk: Buffer | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** The event's bytes, as written to a response that is not chunked (HTTP/1.0). */
  get bytes(): Buffer {
    this.#bytes ??= Buffer.from(this.text, 'utf8');
    return this.#bytes;
  }

  /** The same bytes framed as one HTTP/1.1 chunk (`<size in hex>\r\n<bytes>\r\n`). */
  get chunk(): Buffer {
    if (this.#chunk === undefined) {
      const bytes = this.bytes;
      const size = Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1');
      this.#chunk = Buffer.concat([size, bytes, CRLF], size.length + bytes.length + CRLF.length);
    }
    return this.#chunk;
  }
}
