// Metadata for each file of an upload batch, beside the batch's own: from a CSV whose first column
// names the file (`file,agent,queue`) or from a file-name pattern (`{agent}_{date}_{queue}.wav`).
// A file's own values win over the batch's.

/** Rows of an RFC 4180 CSV (quoted cells, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((r) => r.some((value) => value.trim() !== ''));
}

/** A CSV whose header starts with `file` (or `filename`): each file name's values by column. */
export function metadataFromCsv(text: string): { byFile: Map<string, Record<string, string>>; problem: string | null } {
  const [header, ...rows] = parseCsv(text);
  if (!header || !/^(file|filename|file_name)$/i.test(header[0]?.trim() ?? '')) return { byFile: new Map(), problem: 'The first column of the CSV must be "file", naming each file.' };
  const fields = header.slice(1).map((name) => name.trim());
  const byFile = new Map<string, Record<string, string>>();
  for (const row of rows) {
    const name = row[0]?.trim();
    if (!name) continue;
    byFile.set(name, Object.fromEntries(fields.map((field, i) => [field, row[i + 1]?.trim() ?? '']).filter(([field, value]) => field && value !== '')));
  }
  return { byFile, problem: null };
}

/**
 * The values a file name gives by a pattern: `{agent}_{date}_{queue}.wav` on `ana_2026-11-02_billing.wav`
 * gives agent, date and queue. The extension may be left out of the pattern. Null: no match.
 */
export function metadataFromPattern(pattern: string, filename: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .trim()
    .split(/(\{[^{}]+\})/)
    .map((part) => {
      const field = /^\{([^{}]+)\}$/.exec(part)?.[1];
      if (field) {
        names.push(field.trim());
        return '(.+?)';
      }
      return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    })
    .join('');
  if (names.length === 0) return null;
  const match = new RegExp(`^${source}(\\.[A-Za-z0-9]+)?$`).exec(filename);
  if (!match) return null;
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]).filter(([name]) => name !== '' && name !== '_'));
}

/** The metadata one file is uploaded with: the batch's, then its own (CSV row, else pattern). */
export function metadataForFile(filename: string, batch: Record<string, unknown>, csv: Map<string, Record<string, string>> | null, pattern: string): Record<string, unknown> {
  const own = csv?.get(filename) ?? (pattern.trim() ? metadataFromPattern(pattern, filename) : null) ?? {};
  return { ...batch, ...own };
}

/** The field of a CSV or a pattern that says when the call took place: sent as the upload's `recorded_at`, not as metadata. */
export const CALL_TIME_FIELD = 'recorded_at';

const CALL_TIME = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T _-]?(\d{2})[:.-]?(\d{2})(?:[:.-]?(\d{2}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * When a call took place, from what a file name or a CSV cell says: `2026-11-20`, `2026-11-20T09:30`,
 * `2026-11-20_0930`, `20261120`, with seconds or a zone (`Z`, `+01:00`) if given. Without a zone
 * it is this browser's time; a date alone is noon, so the call stays on its day in any zone.
 * An RFC 3339 instant, or null where the text is no date.
 */
export function callTimeFrom(text: string, zoneOffsetMinutes?: (date: Date) => number): string | null {
  const match = CALL_TIME.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, zone] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h ?? '12', mi ?? '00', s ?? '00'].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(utc).getUTCDate() !== day) return null; // 2026-02-30
  let offset: number;
  if (zone === undefined) {
    const local = new Date(year, month - 1, day, hour, minute, second);
    offset = zoneOffsetMinutes ? zoneOffsetMinutes(local) : -local.getTimezoneOffset();
  } else if (/^z$/i.test(zone)) offset = 0;
  else {
    const [, sign, zh, zm] = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    offset = (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm));
  }
  return new Date(utc - offset * 60_000).toISOString();
}

/** A file's metadata with its call time taken out: what is sent as metadata, and as `recorded_at` (a problem where it is no date). */
export function splitCallTime(own: Record<string, unknown>): { metadata: Record<string, unknown>; recordedAt: string | null; problem: string | null } {
  if (!(CALL_TIME_FIELD in own)) return { metadata: own, recordedAt: null, problem: null };
  const { [CALL_TIME_FIELD]: raw, ...metadata } = own;
  const text = typeof raw === 'string' ? raw : String(raw);
  const recordedAt = callTimeFrom(text);
  return { metadata, recordedAt, problem: recordedAt === null ? `${CALL_TIME_FIELD} “${text}” is not a date (2026-11-20, or 2026-11-20T09:30)` : null };
}

/**
 * What to tell about a file before it is uploaded, or null: a pattern its name does not fit, a CSV
 * without its row (it gets no values of its own), a call time that is no date (it would be refused).
 */
export function fileWarning(filename: string, batch: Record<string, unknown>, csv: Map<string, Record<string, string>> | null, pattern: string): string | null {
  if (csv && !csv.has(filename)) return 'not in the CSV: no values of its own';
  if (!csv && pattern.trim() && metadataFromPattern(pattern, filename) === null) return 'its name does not fit the pattern: no values of its own';
  return splitCallTime(metadataForFile(filename, batch, csv, pattern)).problem;
}

/**
 * What a CSV gives the files chosen: "calls.csv: values for 2 of the 3 files chosen; 1 row names
 * no file chosen (other.wav)". Its rows are counted against the files, not by themselves.
 */
export function csvSummary(name: string, byFile: ReadonlyMap<string, unknown>, chosen: readonly string[]): string {
  const files = [...new Set(chosen)];
  const matched = files.filter((file) => byFile.has(file)).length;
  const unmatched = [...byFile.keys()].filter((file) => !files.includes(file));
  const given = files.length === 0 ? `rows for ${byFile.size} ${byFile.size === 1 ? 'file' : 'files'}` : `values for ${matched} of the ${files.length} ${files.length === 1 ? 'file' : 'files'} chosen`;
  const extra = files.length > 0 && unmatched.length > 0 ? `; ${unmatched.length} ${unmatched.length === 1 ? 'row names' : 'rows name'} no file chosen (${unmatched.slice(0, 3).join(', ')}${unmatched.length > 3 ? ', …' : ''})` : '';
  return `${name}: ${given}${extra}`;
}
