// Query-string helpers shared by routes: the `metadata.<field>=<value>` filters.

/** The `metadata.<field>` parameters of a query string, by field path. */
export function metadataFilters(query: Record<string, unknown>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith('metadata.')) filters[name.slice('metadata.'.length)] = String(value);
  }
  return filters;
}
