// Time as a parameter: services take a Clock so tests can control "now".
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** ISO 8601 in UTC with milliseconds, the one timestamp format of the API and the store. */
export function iso(date: Date): string {
  return date.toISOString();
}
