/** What a guard needs of a Fastify request: the matched route's pattern and the raw request target. */
export interface RoutedRequest {
  routeOptions: { url?: string | undefined };
  url: string;
}

/**
 * The path a guard decides on: the pattern of the route the router matched (so every spelling of a path
 * that reaches a handler, `/%61pi/...` included, is judged as that handler's route), or, when no route
 * matched or the route is a wildcard, the request's path percent-decoded.
 */
export function routePath(request: RoutedRequest): string {
  const matched = request.routeOptions.url;
  if (matched !== undefined && !matched.includes('*')) return matched;
  const raw = request.url.split('?', 1)[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** One route of a server's live route table, as its `onRoute` hook saw it registered. */
export interface RouteEntry {
  method: string;
  url: string;
  /** The route's own hooks, so that a test can see which guard it carries. */
  onRequest: unknown;
  preParsing: unknown;
  preHandler: unknown;
}
