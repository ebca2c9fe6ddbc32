// Lists the routes a built server has, for tests that must cover every route.
import type { FastifyInstance } from 'fastify';

export interface Route {
  path: string;
  methods: string[];
}

/**
 * Every registered route, read from the router's own tree (printRoutes), so a route added anywhere
 * (capabilities, plugins, docs) is covered without this test being told about it.
 */
export function registeredRoutes(server: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of server.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?)(?: \(([^)]+)\))?$/.exec(line.replace(/\u00a0/g, ' '));
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + (match[2] ?? '');
    stack[depth] = full;
    if (match[3]) routes.push({ path: full, methods: match[3].split(', ').map((m) => m.trim()) });
  }
  return routes;
}
