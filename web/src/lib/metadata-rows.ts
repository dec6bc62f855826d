// Metadata typed as field/value rows, read back as the object the API stores.
export interface MetadataRow {
  key: string;
  value: string;
}

/**
 * Rows become an object; a value that reads as a number or true/false is kept as one. A row left
 * as it was given (`original`) keeps its value's type: an edit of other fields must not turn the
 * text "007" into the number 7.
 */
export function rowsToObject(rows: MetadataRow[], original: Record<string, unknown> = {}): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const { key, value } of rows) {
    if (!key.trim()) continue;
    const text = value.trim();
    const before = Object.hasOwn(original, key.trim()) ? original[key.trim()] : undefined;
    if (before !== undefined && before !== null && typeof before !== 'object' && String(before) === value) {
      object[key.trim()] = before;
      continue;
    }
    object[key.trim()] = text === 'true' ? true : text === 'false' ? false : text !== '' && !Number.isNaN(Number(text)) ? Number(text) : value;
  }
  return object;
}
