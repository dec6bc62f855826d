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
