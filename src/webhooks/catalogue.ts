// The event catalogue of interface section 6: every event name, its category and when it fires.
export interface EventInfo {
  name: string;
  category: 'crawl' | 'scrape' | 'search' | 'map' | 'scheduled_tasks' | 'monitor' | 'webhook';
  description: string;
}

const jobEvents = (kind: 'scrape' | 'crawl' | 'search' | 'map', label: string, withCancel: boolean): EventInfo[] => [
  { name: `${kind}.created`, category: kind, description: `A ${label} job is queued` },
  { name: `${kind}.started`, category: kind, description: `A ${label} job begins execution` },
  { name: `${kind}.completed`, category: kind, description: `A ${label} job finishes successfully` },
  { name: `${kind}.failed`, category: kind, description: `A ${label} job encounters an error` },
  ...(withCancel ? [{ name: `${kind}.cancelled`, category: kind, description: `A ${label} job is cancelled manually` }] : []),
];

export const EVENTS: readonly EventInfo[] = [
  ...jobEvents('crawl', 'crawl', true),
  ...jobEvents('scrape', 'scrape', true),
  ...jobEvents('search', 'search', false),
  ...jobEvents('map', 'map', false),
  { name: 'task.executed', category: 'scheduled_tasks', description: 'A scheduled task runs' },
  { name: 'task.failed', category: 'scheduled_tasks', description: 'A scheduled task fails' },
  { name: 'task.paused', category: 'scheduled_tasks', description: 'A scheduled task is paused' },
  { name: 'task.resumed', category: 'scheduled_tasks', description: 'A scheduled task is resumed' },
  { name: 'monitor.check.completed', category: 'monitor', description: 'A monitor run finishes (scheduled or on demand)' },
  { name: 'monitor.changed', category: 'monitor', description: 'A webpage monitor detects a meaningful text change' },
  { name: 'monitor.price.changed', category: 'monitor', description: 'A price monitor detects a structured field change' },
  { name: 'monitor.error', category: 'monitor', description: 'A monitor check fails' },
  { name: 'webhook.test', category: 'webhook', description: 'A test delivery is requested' },
];

export const EVENT_NAMES: ReadonlySet<string> = new Set(EVENTS.map((e) => e.name));

/** The body of GET /v1/webhook-events (decisions.md). */
export function eventCatalogue() {
  const categories: Record<string, string[]> = { crawl: [], scrape: [], search: [], map: [], scheduled_tasks: [], monitor: [], webhook: [] };
  for (const e of EVENTS) categories[e.category]?.push(e.name);
  return { event_types: EVENTS.map((e) => e.name), categories, events: EVENTS.map((e) => ({ ...e })) };
}
