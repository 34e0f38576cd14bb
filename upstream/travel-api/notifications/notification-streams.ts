import type { SseWriter } from '../sse/sse-writer.ts';

/** The spec's graceful ending of a notification stream. */
const DONE = { event: 'done', data: {} } as const;

/**
 * The open notification streams of this process, by traveler, so they can be ended gracefully with
 * `done`: all of them when the server closes, or on demand through the admin API.
 */
export class NotificationStreams {
  readonly #byTraveler = new Map<string, Set<SseWriter>>();

  /** Tracks `stream` until it is over, whoever ends it. */
  add(travelerId: string, stream: SseWriter): void {
    let streams = this.#byTraveler.get(travelerId);
    if (!streams) {
      streams = new Set();
      this.#byTraveler.set(travelerId, streams);
    }
    streams.add(stream);
    stream.signal.addEventListener(
      'abort',
      () => {
        streams.delete(stream);
        if (streams.size === 0 && this.#byTraveler.get(travelerId) === streams)
          this.#byTraveler.delete(travelerId);
      },
      { once: true },
    );
  }

  /**
   * Ends the open streams of one traveler, or of every traveler, each with `done` after the events
   * already queued on it; resolves with how many it ended.
   */
  async endWithDone(travelerId?: string): Promise<number> {
    const streams =
      travelerId === undefined
        ? [...this.#byTraveler.values()].flatMap((set) => [...set])
        : [...(this.#byTraveler.get(travelerId) ?? [])];
    const open = streams.filter((stream) => stream.open);
    await Promise.all(open.map((stream) => stream.end(DONE)));
    return open.length;
  }
}
