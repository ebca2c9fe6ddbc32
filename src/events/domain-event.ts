// The shape every event constructor returns: what happened (its catalogue type), to whom, when, and its payload.

/**
 * One event as its constructor builds it. Each event type has one constructor, next to the
 * code that owns what it reports (crawl/events.ts, scrape/events.ts, tasks/events.ts,
 * webhooks/events.ts), and its payload type is declared there once.
 */
export interface DomainEvent<
  Type extends string = string,
  Payload extends Record<string, unknown> = Record<string, unknown>,
> {
  readonly type: Type;
  readonly ownerId: string;
  /** The job, task or subscription the event is about. */
  readonly subjectId: string | null;
  readonly createdAt: string;
  readonly payload: Payload;
}

/** An object whose keys are event types and whose values build the event of that type. */
export type EventConstructors = Record<string, (...args: never[]) => DomainEvent>;
