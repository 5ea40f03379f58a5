import { addDays } from '@app/common';

/** The Sunday that ends the ISO week (Monday to Sunday) of a `YYYY-MM-DD` date. */
export function weekEnd(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, (7 - weekday) % 7);
}
