import { metrics } from '@opentelemetry/api';
import { startTelemetry } from '#shared/observability/telemetry.ts';

export const BFF_SERVICE_NAME = 'wayfare-bff';

/** Seconds from a notification's creation upstream to its delivery: the buckets of the lag alert. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

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
    notificationsDelivered: meter.createCounter('wayfare.notifications.delivered', {
      description:
        'Notifications by how they reached the traveler: live, push, suppressed, duplicate_dropped.',
    }),
    notificationLag: meter.createHistogram('wayfare.notifications.delivery_lag', {
      description: 'Time from a notification’s creation upstream to its live delivery to a browser stream.',
      unit: 's',
      advice: { explicitBucketBoundaries: LAG_BUCKETS },
    }),
    pushDecisions: meter.createCounter('wayfare.push.decisions', {
      description:
        'Push decisions by outcome (sent, suppressed-live, no-subscription, duplicate, deciding, failed).',
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
