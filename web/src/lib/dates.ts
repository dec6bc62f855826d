// Dates as the interface writes them: "25 Nov 2026" and "25 Nov 2026, 14:03", in the browser's
// time zone. Written by hand rather than with toLocaleString: the first Intl date format a page
// asks for loads the browser's locale data, a long task (about 65 ms, 260 ms on a slowed phone)
// on every page that shows a date.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (n: number) => String(n).padStart(2, '0');

/** "25 Nov 2026" (local time), or "" for a value that is not a date. */
export function formatDate(value: string | number | Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** "25 Nov 2026, 14:03" (local time, 24-hour clock), or "" for a value that is not a date. */
export function formatDateTime(value: string | number | Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDate(date)}, ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * When a call took place: "25 Nov 2026, 14:03", but the day alone for a call given only its day
 * (the upload stores that as local noon to the second: "18 Nov 2026", not a made-up "12:00").
 */
export function formatCallTime(value: string | number | Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const dayOnly = date.getHours() === 12 && date.getMinutes() === 0 && date.getSeconds() === 0 && date.getMilliseconds() === 0;
  return dayOnly ? formatDate(date) : formatDateTime(date);
}

/** A report's period as people say it: "16 Nov 2026", "week of 16 Nov 2026", "Nov 2026" (from its first day, "2026-11-16"). */
export function periodLabel(first: string, period: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(first);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return first;
  const day = `${Number(match[3])} ${month} ${match[1]}`;
  return period === 'month' ? `${month} ${match[1]}` : period === 'week' ? `week of ${day}` : day;
}
