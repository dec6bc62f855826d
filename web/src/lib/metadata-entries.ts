// A recording's metadata as a person reads it: one "field value" pair per field, in the order
// given, a nested value written as compact JSON (the API returns it unchanged; the page shows it).

/** The fields of `metadata` and each value as text: strings as they are, anything else as JSON. */
export function metadataEntries(metadata: Record<string, unknown>): [string, string][] {
  return Object.entries(metadata).map(([field, value]) => [field, typeof value === 'string' ? value : JSON.stringify(value)]);
}
