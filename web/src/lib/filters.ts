// The recordings list's filters, kept in the page's URL (so a filtered view can be shared, and
// the back button restores it) and turned into the API's query.
export interface RecordingFilters {
  status: string | null;
  createdAfter: string | null;
  createdBefore: string | null;
  /** metadata.<field> = value */
  metadata: Record<string, string>;
}

export const emptyFilters: RecordingFilters = { status: null, createdAfter: null, createdBefore: null, metadata: {} };

export function filtersFromSearch(search: URLSearchParams): RecordingFilters {
  const metadata: Record<string, string> = {};
  for (const [name, value] of search) {
    if (name.startsWith('metadata.') && name.length > 'metadata.'.length && value !== '') metadata[name.slice('metadata.'.length)] = value;
  }
  return {
    status: search.get('status') || null,
    createdAfter: search.get('created_after') || null,
    createdBefore: search.get('created_before') || null,
    metadata,
  };
}

/** The URL search of a filter set; other parameters of `base` (a cursor is not one) are kept. */
export function filtersToSearch(filters: RecordingFilters, base = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams();
  for (const [name, value] of base) {
    if (name !== 'status' && name !== 'created_after' && name !== 'created_before' && name !== 'cursor' && !name.startsWith('metadata.')) next.append(name, value);
  }
  if (filters.status) next.set('status', filters.status);
  if (filters.createdAfter) next.set('created_after', filters.createdAfter);
  if (filters.createdBefore) next.set('created_before', filters.createdBefore);
  for (const [field, value] of Object.entries(filters.metadata).sort(([a], [b]) => a.localeCompare(b))) {
    if (field && value !== '') next.set(`metadata.${field}`, value);
  }
  return next;
}

/** The query the list and report endpoints take for these filters. */
export function filtersToQuery(filters: RecordingFilters): Record<string, string> {
  return Object.fromEntries(filtersToSearch(filters));
}

export const activeFilterCount = (filters: RecordingFilters): number =>
  (filters.status ? 1 : 0) + (filters.createdAfter ? 1 : 0) + (filters.createdBefore ? 1 : 0) + Object.keys(filters.metadata).length;
