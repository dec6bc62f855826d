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
