// CSV as Hark writes it: RFC 4180 quoting, and text that a spreadsheet would run as a formula
// (OWASP's rule: a cell starting with =, +, -, @, tab or carriage return) is made inert with a
// leading apostrophe. Numbers are numbers and stay as they are, negative ones included.

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as a CSV document, one line each, ending with a newline. */
export const csvDocument = (rows: readonly (readonly unknown[])[]): string => rows.map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
