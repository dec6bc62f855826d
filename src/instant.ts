// A moment given as text: RFC 3339 with a time zone ("2026-11-02T09:30:00Z", "…+01:00"), read
// only where the date exists (not 30 February: JavaScript's Date would read it as 2 March) and the
// moment falls in years 1 to 9999 in UTC, which PostgreSQL's timestamps and ISO strings hold (a
// year 0 or 10000 was a 500 from the database, and a key's expiry read back as "+010000-…").

const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const FIRST = Date.parse('0001-01-01T00:00:00Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) => [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;

/** The moment `text` names, or null where it is not an RFC 3339 date-time with a zone that exists in years 1–9999. */
export function parseInstant(text: string): Date | null {
  const parts = RFC_3339.exec(text);
  if (!parts) return null;
  const [year, month, day, hour, minute, second, , zoneHours, zoneMinutes] = parts.slice(1).map((part) => Number(part ?? 0));
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return null;
  if (hour! > 23 || minute! > 59 || second! > 59 || zoneHours! > 23 || zoneMinutes! > 59) return null;
  const date = new Date(text.toUpperCase().replace(' ', 'T'));
  return storable(date) ? date : null;
}

/** Whether a Date is a moment in years 1–9999 in UTC (not Invalid Date). */
export function storable(date: Date): boolean {
  const time = date.getTime();
  return !Number.isNaN(time) && time >= FIRST && time <= LAST;
}

/** Whether `text` is such a moment (the `date-time` format of request schemas). */
export const isInstant = (text: string): boolean => parseInstant(text) !== null;
