const TRIP_SEGMENT_LINK = /^[a-z][a-z0-9+.-]*:\/\/trips\/([^/?#]+)\/segment\/([^/?#]+)\/?$/i;

/**
 * The in-app path of a notification's deep link: `<scheme>://trips/<tripId>/segment/<segmentId>`
 * becomes `/trips/<tripId>/segment/<segmentId>`. Anything else opens the app's start page, so a link
 * can never lead outside the app.
 */
export function deepLinkPath(deepLink: string): string {
  const match = TRIP_SEGMENT_LINK.exec(deepLink);
  if (match === null) return '/';
  try {
    const [tripId, segmentId] = [match[1] ?? '', match[2] ?? ''].map((part) =>
      encodeURIComponent(decodeURIComponent(part)),
    );
    if ([tripId, segmentId].some((part) => part === '.' || part === '..')) return '/';
    return `/trips/${tripId}/segment/${segmentId}`;
  } catch {
    return '/';
  }
}
