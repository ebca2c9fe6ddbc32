// A monitor's stored settings as the check reads them, with every default applied (docs/monitors.md, "Fields").
import type { ComparedSettings } from './compare.js';
import type { DiffOptions, MonitorTarget, MonitorType, NotifyOptions, TrackMode } from './schema.js';
import type { MonitorRow } from './store.js';

/** The fields a price monitor extracts when it names no extract_schema. */
export const DEFAULT_PRICE_SCHEMA = {
  type: 'object',
  properties: {
    price: { type: 'number', description: 'The current price of the product' },
    currency: { type: 'string', description: 'ISO 4217 currency code of the price' },
    availability: { type: 'string', description: 'Whether the product is in stock' },
  },
  required: ['price'],
};

export interface MonitorSettings {
  target: MonitorTarget;
  trackMode: TrackMode;
  extractSchema: Record<string, unknown> | undefined;
  diffOptions: DiffOptions;
  notifyOptions: NotifyOptions;
  onlyMeaningful: boolean;
  compared: ComparedSettings;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export function monitorSettings(monitor: MonitorRow): MonitorSettings {
  const targets = json<MonitorTarget[]>(monitor.targets) ?? [];
  const diffOptions = json<DiffOptions>(monitor.diff_options) ?? {};
  const notifyOptions = json<NotifyOptions>(monitor.notify_options) ?? {};
  const monitorType = monitor.monitor_type as MonitorType;
  const trackMode = monitor.track_mode as TrackMode;
  const extractSchema =
    json<Record<string, unknown>>(monitor.extract_schema) ??
    (monitorType === 'price' && trackMode !== 'text' ? DEFAULT_PRICE_SCHEMA : undefined);
  return {
    target: targets[0] as MonitorTarget,
    trackMode,
    extractSchema,
    diffOptions,
    notifyOptions,
    onlyMeaningful: notifyOptions.only_meaningful ?? true,
    compared: {
      monitorType,
      trackMode,
      minChangeRatio: diffOptions.min_change_ratio ?? 0,
      priceChangePct: notifyOptions.thresholds?.price_change_pct,
    },
  };
}
