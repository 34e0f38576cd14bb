import type { FastifyPluginAsync, FastifyPluginCallback, onRequestHookHandler } from 'fastify';

type RoutePlugin = FastifyPluginAsync | FastifyPluginCallback;

/**
 * The routes of `plugins` behind the session gate, set once for the whole subtree: each route registered
 * in it gets `app.requireSession` as the first of its own onRequest hooks, so the guard sits on every
 * route (and shows in the route table), never on a URL prefix, and no handler repeats it.
 */
export function sessionGated(...plugins: RoutePlugin[]): FastifyPluginAsync {
  return async function sessionGatedRoutes(app) {
    app.addHook('onRoute', (route) => {
      const own = [route.onRequest ?? []].flat() as onRequestHookHandler[];
      route.onRequest = [app.requireSession, ...own];
    });
    for (const plugin of plugins) await app.register(plugin);
  };
}
