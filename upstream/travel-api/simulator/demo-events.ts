import type { KnownNotificationEventType } from '#shared/upstream/notifications.ts';
import type { TravelerStore } from '../travelers/traveler-store.ts';
import type { TravelEventSimulator } from './travel-event-simulator.ts';

export interface DemoEventsLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** Travelers who called the service within this window get demo events. */
const ACTIVE_WINDOW_MS = 30 * 60_000;
/** Kinds the demo draws from, as often as they are listed; cancellations are left to explicit calls. */
const DEMO_KINDS: readonly KnownNotificationEventType[] = [
  'SEGMENT_DELAYED',
  'SEGMENT_DELAYED',
  'SEGMENT_DELAYED',
  'GATE_CHANGED',
  'GATE_CHANGED',
  'CHECK_IN_OPEN',
];

/**
 * Demo mode: every interval, one travel event for each traveler who recently called the service. A
 * failure for one traveler is logged and does not stop the others or later rounds.
 */
export class DemoEvents {
  readonly #intervalMs: number;
  readonly #simulator: TravelEventSimulator;
  readonly #travelers: TravelerStore;
  readonly #logger: DemoEventsLogger;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: {
    intervalSeconds: number;
    simulator: TravelEventSimulator;
    travelers: TravelerStore;
    logger: DemoEventsLogger;
  }) {
    this.#intervalMs = options.intervalSeconds * 1000;
    this.#simulator = options.simulator;
    this.#travelers = options.travelers;
    this.#logger = options.logger;
  }

  start(): void {
    this.stop();
    this.#timer = setInterval(() => this.round(), this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One round of events; returns how many notifications it created. */
  round(now = new Date()): number {
    let created = 0;
    for (const travelerId of this.#travelers.recentlyActive(new Date(now.getTime() - ACTIVE_WINDOW_MS))) {
      const type = DEMO_KINDS[Math.floor(Math.random() * DEMO_KINDS.length)] ?? 'SEGMENT_DELAYED';
      try {
        const minutes = type === 'SEGMENT_DELAYED' ? 5 * (1 + Math.floor(Math.random() * 12)) : undefined;
        const { notification } = this.#simulator.simulate({ travelerId, type, minutes }, now);
        created += 1;
        this.#logger.info({ travelerId, notificationId: notification.id, type }, 'demo travel event');
      } catch (error) {
        this.#logger.warn(
          { travelerId, type, reason: error instanceof Error ? error.message : String(error) },
          'demo travel event skipped',
        );
      }
    }
    return created;
  }
}
