// The event catalogue (docs/webhooks.md, "Events"): every event type, its category and when it fires.
export interface EventInfo {
  name: string;
  category: 'crawl' | 'scrape' | 'search' | 'map' | 'scheduled_tasks' | 'monitor' | 'webhook';
  description: string;
}

/** Written out in full so that the type of an event name is the union of these names. */
export const EVENTS = [
  { name: 'crawl.created', category: 'crawl', description: 'A crawl job is queued' },
  { name: 'crawl.started', category: 'crawl', description: 'A crawl job begins execution' },
  { name: 'crawl.completed', category: 'crawl', description: 'A crawl job finishes successfully' },
  { name: 'crawl.failed', category: 'crawl', description: 'A crawl job encounters an error' },
  { name: 'crawl.cancelled', category: 'crawl', description: 'A crawl job is cancelled manually' },
  { name: 'scrape.created', category: 'scrape', description: 'A scrape job is queued' },
  { name: 'scrape.started', category: 'scrape', description: 'A scrape job begins execution' },
  { name: 'scrape.completed', category: 'scrape', description: 'A scrape job finishes successfully' },
  { name: 'scrape.failed', category: 'scrape', description: 'A scrape job encounters an error' },
  { name: 'scrape.cancelled', category: 'scrape', description: 'A scrape job is cancelled manually' },
  { name: 'search.created', category: 'search', description: 'A search job is queued' },
  { name: 'search.started', category: 'search', description: 'A search job begins execution' },
  { name: 'search.completed', category: 'search', description: 'A search job finishes successfully' },
  { name: 'search.failed', category: 'search', description: 'A search job encounters an error' },
  { name: 'map.created', category: 'map', description: 'A map job is queued' },
  { name: 'map.started', category: 'map', description: 'A map job begins execution' },
  { name: 'map.completed', category: 'map', description: 'A map job finishes successfully' },
  { name: 'map.failed', category: 'map', description: 'A map job encounters an error' },
  { name: 'task.executed', category: 'scheduled_tasks', description: 'A scheduled task runs' },
  { name: 'task.failed', category: 'scheduled_tasks', description: 'A scheduled task fails' },
  { name: 'task.paused', category: 'scheduled_tasks', description: 'A scheduled task is paused' },
  { name: 'task.resumed', category: 'scheduled_tasks', description: 'A scheduled task is resumed' },
  {
    name: 'monitor.check.completed',
    category: 'monitor',
    description: 'A monitor run finishes (scheduled or on demand)',
  },
  { name: 'monitor.changed', category: 'monitor', description: 'A webpage monitor detects a meaningful text change' },
  {
    name: 'monitor.price.changed',
    category: 'monitor',
    description: 'A price monitor detects a structured field change',
  },
  { name: 'monitor.error', category: 'monitor', description: 'A monitor check fails' },
  { name: 'webhook.test', category: 'webhook', description: 'A test delivery is requested' },
] as const satisfies readonly EventInfo[];

export type EventType = (typeof EVENTS)[number]['name'];

/**
 * Catalogued types that nothing emits yet: the capabilities that will emit them are not built
 * (docs/webhooks.md says so). A subscription may name them and will receive them once they are.
 */
export const NOT_YET_EMITTED: ReadonlySet<EventType> = new Set<EventType>([]);

export const EVENT_NAMES: ReadonlySet<string> = new Set(EVENTS.map((e) => e.name));

/** The body of GET /v1/webhook-events (docs/webhooks.md). */
export function eventCatalogue() {
  const categories: Record<string, string[]> = {
    crawl: [],
    scrape: [],
    search: [],
    map: [],
    scheduled_tasks: [],
    monitor: [],
    webhook: [],
  };
  for (const e of EVENTS) categories[e.category]?.push(e.name);
  return { event_types: EVENTS.map((e) => e.name), categories, events: EVENTS.map((e) => ({ ...e })) };
}
