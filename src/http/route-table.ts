// Remembers every registered route so an unknown method on a known path can answer 405, not 404.
import type { FastifyInstance } from 'fastify';

interface Entry {
  pattern: RegExp;
  methods: Set<string>;
}

export class RouteTable {
  private readonly entries = new Map<string, Entry>();

  /** Collects routes as they are registered; call before any route is added. */
  attach(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      this.add(
        route.url,
        methods.filter((m) => m !== 'HEAD'),
      );
    });
  }

  add(url: string, methods: string[]): void {
    let entry = this.entries.get(url);
    if (!entry) {
      const source = url
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      entry = { pattern: new RegExp(`^${source}/?$`), methods: new Set() };
      this.entries.set(url, entry);
    }
    for (const m of methods) entry.methods.add(m.toUpperCase());
  }

  methodsFor(path: string): string[] {
    const found = new Set<string>();
    for (const entry of this.entries.values()) {
      if (entry.pattern.test(path)) for (const m of entry.methods) found.add(m);
    }
    return [...found].sort();
  }
}
