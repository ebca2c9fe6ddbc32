// Firecrawl's v2 API as an adapter: its paths under /v2, its request and response shapes, over the same services,
// stores, keys, limits and address guard as /v1 (docs/firecrawl.md). A job started through one reads through the other.
import type { FastifyInstance } from 'fastify';
import { type AccountRouteDeps, registerAccountRoutes } from './account-routes.js';
import { type DiscoveryRouteDeps, registerDiscoveryRoutes } from './discovery-routes.js';
import { installFirecrawlErrors } from './errors.js';
import { type JobRouteDeps, registerJobRoutes } from './job-routes.js';
import { type ParseRouteDeps, registerParseRoute } from './parse.js';
import { registerMonitorRoutes } from './monitors.js';
import type { MonitorService } from '../monitors/service.js';
import type { RouteTable } from '../http/route-table.js';

export type FirecrawlDeps = JobRouteDeps &
  DiscoveryRouteDeps &
  AccountRouteDeps &
  ParseRouteDeps & { monitors: MonitorService };

export function firecrawlRoutes(deps: FirecrawlDeps) {
  return async (app: FastifyInstance, routes: RouteTable): Promise<void> => {
    await app.register(
      async (v2) => {
        installFirecrawlErrors(v2, routes);
        registerJobRoutes(v2, deps);
        registerDiscoveryRoutes(v2, deps);
        registerAccountRoutes(v2, deps);
        await registerParseRoute(v2, deps);
        registerMonitorRoutes(v2, deps.monitors);
      },
      { prefix: '/v2' },
    );
  };
}
