import { metrics, type Meter } from '@opentelemetry/api';
import { PUSH_OUTCOMES } from '../push/push-decision.ts';
import { startTelemetry } from '#shared/observability/telemetry.ts';

export const BFF_SERVICE_NAME = 'wayfare-bff';

/** Seconds from a notification's creation upstream to its delivery: the buckets of the lag alert. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** How a notification reached the traveler (or did not), the `path` of wayfare.notifications.delivered. */
const DELIVERY_PATHS = ['live', 'push', 'suppressed', 'duplicate_dropped'] as const;

/** A counter whose every count is one of a few values of one attribute (tally). */
interface Tally<Value extends string> {
  /** Counts one more of `value`. */
  add(value: Value): void;
}

/**
 * A counter by one attribute of a few fixed values, for what is counted per notification and per delivery
 * (a burst to every traveler counts thousands at once). The totals are kept here and read by the exporter
 * when it collects, as an asynchronous counter: a count costs an addition, where a synchronous counter's
 * `add` has the metrics SDK hash its attribute set on every call. Every value is reported from the start,
 * at 0 until counted, so that a rate over it exists before the first count.
 */
function tally<Value extends string>(
  meter: Meter,
  name: string,
  options: { description: string; attribute: string; values: readonly Value[] },
): Tally<Value> {
  const totals = new Map<Value, number>(options.values.map((value) => [value, 0]));
  const attributeSets = options.values.map((value) => [value, { [options.attribute]: value }] as const);
  meter.createObservableCounter(name, { description: options.description }).addCallback((result) => {
    for (const [value, attributes] of attributeSets) result.observe(totals.get(value) ?? 0, attributes);
  });
  return {
    add(value) {
      totals.set(value, (totals.get(value) ?? 0) + 1);
    },
  };
}

/**
 * Wayfare's own instruments (docs/operations.md lists them with their meanings). Every label is one of a
 * few fixed values (a kind, an outcome, a reason, a route template, an error code): never an id, a
 * traveler or a raw path. Made on first use, after the process's telemetry started.
 */
function createBffMetrics() {
  startTelemetry(BFF_SERVICE_NAME);
  const meter = metrics.getMeter(BFF_SERVICE_NAME);
  return {
    browserStreamsOpen: meter.createUpDownCounter('wayfare.browser_streams.open', {
      description: 'Browser SSE streams open on this instance, by kind (notifications, stays, fares).',
    }),
    upstreamNotificationStreams: meter.createUpDownCounter('wayfare.notification_upstream_streams.held', {
      description: 'Upstream notification streams this instance holds open (one per traveler it leads).',
    }),
    upstreamNotificationStreamsReopening: meter.createObservableGauge(
      'wayfare.notification_upstream_streams.reopening',
      {
        description:
          'Upstream notification streams this instance is opening and catching up now (opening), and those waiting for their turn (waiting).',
      },
    ),
    hubLeasesHeld: meter.createUpDownCounter('wayfare.hub.leases.held', {
      description: 'Travelers whose notification lease this instance holds.',
    }),
    hubLeasesMoved: meter.createCounter('wayfare.hub.leases.moved', {
      description:
        'Leases this instance lost while its browsers still listened (another instance took over).',
    }),
    notificationsDelivered: tally(meter, 'wayfare.notifications.delivered', {
      description:
        'Notifications by how they reached the traveler: live, push, suppressed, duplicate_dropped.',
      attribute: 'path',
      values: DELIVERY_PATHS,
    }),
    notificationLag: meter.createHistogram('wayfare.notifications.delivery_lag', {
      description: 'Time from a notification’s creation upstream to its live delivery to a browser stream.',
      unit: 's',
      advice: { explicitBucketBoundaries: LAG_BUCKETS },
    }),
    pushDecisions: tally(meter, 'wayfare.push.decisions', {
      description:
        'Push decisions by outcome (sent, suppressed-live, no-subscription, duplicate, deciding, failed).',
      attribute: 'outcome',
      values: PUSH_OUTCOMES,
    }),
    catchUpRuns: meter.createCounter('wayfare.notifications.catch_up.runs', {
      description: 'Catch-ups through the notification list after an upstream (re)connect.',
    }),
    catchUpItems: meter.createCounter('wayfare.notifications.catch_up.items', {
      description: 'Notifications a catch-up found that the live stream had not brought.',
    }),
    upstreamRetries: meter.createCounter('wayfare.upstream.retries', {
      description:
        'Travel API calls sent again, by reason (network, retry_later, retry_now, token_refresh, consumer_secret).',
    }),
    rateLimitRefusals: meter.createCounter('wayfare.rate_limit.refusals', {
      description: 'Requests refused with 429 by a quota, by route template.',
    }),
    redisFailures: meter.createCounter('wayfare.redis.command_failures', {
      description: 'Redis commands that failed because Redis could not be reached in time.',
    }),
    sessionRefreshes: meter.createCounter('wayfare.session.refreshes', {
      description: 'Access token refreshes by outcome (refreshed, refused, unavailable).',
    }),
    sessionRefreshJoins: meter.createCounter('wayfare.session.refresh_joins', {
      description:
        'Token refreshes joined instead of run (single flight), in this process or across the fleet.',
    }),
    bookingOutcomes: meter.createCounter('wayfare.bookings.outcomes', {
      description: 'Booking attempts (POST /api/bookings) by outcome: BOOKED or the error code answered.',
    }),
  };
}

export type BffMetrics = ReturnType<typeof createBffMetrics>;

let instruments: BffMetrics | undefined;

export function bffMetrics(): BffMetrics {
  return (instruments ??= createBffMetrics());
}
