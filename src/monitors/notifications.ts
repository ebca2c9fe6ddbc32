// A monitor's notifications (docs/monitors.md, "Notifications"): the webhook deliveries of the events about it, in
// AnyCrawl's MonitorNotification shape. Events name their monitor as subject; deliveries name their event.
import type { Kysely } from 'kysely';
import { newestEventsOfSubject } from '../events/outbox.js';
import type { Database } from '../store/schema.js';
import { deliveriesOfEvents } from '../webhooks/delivery-store.js';

export interface MonitorNotification {
  uuid: string;
  check_uuid: string | null;
  change_uuid: string | null;
  channel: 'webhook';
  event_type: string;
  /** The receiving subscription's id (its URL may hold secrets). */
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export type NotificationLookup = (ownerId: string, monitorId: string, limit: number) => Promise<MonitorNotification[]>;

/** Events read per lookup: the deliveries of the newest of them are shown. */
const EVENTS_READ = 1_000;

export function notificationLookup(db: Kysely<Database>): NotificationLookup {
  return async (ownerId, monitorId, limit) => {
    const events = await newestEventsOfSubject(db, ownerId, monitorId, EVENTS_READ);
    const byId = new Map(events.map((e) => [e.id, e]));
    const deliveries = await deliveriesOfEvents(db, [...byId.keys()]);
    return deliveries.slice(0, limit).map((d) => {
      const payload = byId.get(d.event_id ?? '')?.payload ?? {};
      return {
        uuid: d.id,
        check_uuid: typeof payload.check_id === 'string' ? payload.check_id : null,
        change_uuid: typeof payload.change_id === 'string' ? payload.change_id : null,
        channel: 'webhook',
        event_type: d.event_type,
        recipient: d.subscription_id,
        status: d.status,
        attempts: d.attempt_number,
        last_error: d.error_message,
        created_at: d.created_at,
        delivered_at: d.delivered_at,
      };
    });
  };
}

const CHANGE_EVENTS = new Set(['monitor.changed', 'monitor.price.changed']);

/**
 * A notified change's status from the deliveries of its event: `delivered` once a subscription received it, `failed`
 * when every delivery failed, `queued` while one is pending or retrying, or before any was made.
 */
export function notificationStatusOf(stored: string, changeId: string, sent: readonly MonitorNotification[]): string {
  if (stored !== 'queued') return stored;
  const mine = sent.filter((n) => n.change_uuid === changeId && CHANGE_EVENTS.has(n.event_type));
  if (mine.some((n) => n.status === 'delivered')) return 'delivered';
  if (mine.length > 0 && mine.every((n) => n.status === 'failed')) return 'failed';
  return 'queued';
}

/** The deliveries of a change's own event (not those of the check's monitor.check.completed). */
export function notificationsOfChange(changeId: string, sent: readonly MonitorNotification[]): MonitorNotification[] {
  return sent.filter((n) => n.change_uuid === changeId && CHANGE_EVENTS.has(n.event_type));
}
