// The recordings list's filters, kept in the page's URL (so a filtered view can be shared, and
// the back button restores it) and turned into the API's query.
export interface RecordingFilters {
  /** Where the call stands, as its badge says (transcribed, analysed…): the API's pipeline_status. */
  stage: string | null;
  /** The audio's preparation status (a URL may carry it; the scenario dialog picks prepared calls by it). */
  status: string | null;
  /** When the call took place (recorded_at), from and until: the list's "Call date", the reports' periods. */
  recordedAfter: string | null;
  recordedBefore: string | null;
  /** A call category's id (cat-…): the calls that meet it. */
  category: string | null;
  /** Words of one of the call's key phrases. */
  topic: string | null;
  /** Calls where a speaker's mean sentiment is at most −0.05 (negative) or at least 0.2 (positive): the bounds that agree best with hand-labelled turns (bench/understanding.ts). */
  sentiment: Sentiment | null;
  /** metadata.<field> = value, or any of several values (the URL and the API name the field once per value) */
  metadata: Record<string, string[]>;
}

export type Sentiment = 'negative' | 'positive';
/** A speaker's mean sentiment below this is negative, wherever the interface says so (a filter, a new category's condition "below"). */
export const NEGATIVE_SENTIMENT = -0.05;
/** …and above this, positive. */
export const POSITIVE_SENTIMENT = 0.2;
/**
 * The API's sentiment bounds for each choice. Its bounds are inclusive and scores have three
 * decimals, so "below −0.05" is "at most −0.051": the same calls as a category's "below −0.05"
 * (a mean of exactly −0.05 is in neither).
 */
const SCORE_STEP = 0.001;
export const sentimentBounds: Record<Sentiment, { sentiment_min?: string; sentiment_max?: string }> = {
  negative: { sentiment_max: (NEGATIVE_SENTIMENT - SCORE_STEP).toFixed(3) },
  positive: { sentiment_min: (POSITIVE_SENTIMENT + SCORE_STEP).toFixed(3) },
};

/** A sentiment score as the interface writes it: two decimals and its sign ("−0.05", "+0.30", "0.00"), so a mean at a bound is not rounded across it. */
export function signedScore(value: number): string {
  const shown = Math.abs(value).toFixed(2);
  return shown === '0.00' ? '0.00' : `${value > 0 ? '+' : '−'}${shown}`;
}

export const emptyFilters: RecordingFilters = { stage: null, status: null, recordedAfter: null, recordedBefore: null, category: null, topic: null, sentiment: null, metadata: {} };

const own = new Set(['pipeline_status', 'status', 'recorded_after', 'recorded_before', 'category', 'topic', 'sentiment', 'cursor']);

export function filtersFromSearch(search: URLSearchParams): RecordingFilters {
  const metadata: Record<string, string[]> = {};
  for (const [name, value] of search) {
    if (!name.startsWith('metadata.') || name.length === 'metadata.'.length || value === '') continue;
    const field = name.slice('metadata.'.length);
    const values = (metadata[field] ??= []);
    if (!values.includes(value)) values.push(value);
  }
  return {
    stage: search.get('pipeline_status') || null,
    status: search.get('status') || null,
    recordedAfter: search.get('recorded_after') || null,
    recordedBefore: search.get('recorded_before') || null,
    category: search.get('category') || null,
    topic: search.get('topic') || null,
    sentiment: ((s) => (s === 'negative' || s === 'positive' ? s : null))(search.get('sentiment')),
    metadata,
  };
}

/** The URL search of a filter set; other parameters of `base` (a cursor is not one) are kept. */
export function filtersToSearch(filters: RecordingFilters, base = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams();
  for (const [name, value] of base) {
    if (!own.has(name) && !name.startsWith('metadata.')) next.append(name, value);
  }
  if (filters.stage) next.set('pipeline_status', filters.stage);
  if (filters.status) next.set('status', filters.status);
  if (filters.recordedAfter) next.set('recorded_after', filters.recordedAfter);
  if (filters.recordedBefore) next.set('recorded_before', filters.recordedBefore);
  if (filters.category) next.set('category', filters.category);
  if (filters.topic) next.set('topic', filters.topic);
  if (filters.sentiment) next.set('sentiment', filters.sentiment);
  for (const [field, values] of Object.entries(filters.metadata).sort(([a], [b]) => a.localeCompare(b))) {
    for (const value of values) if (field && value !== '') next.append(`metadata.${field}`, value);
  }
  return next;
}

/** The query the list and report endpoints take for these filters: a metadata field with several values is a list (sent once per value). */
export function filtersToQuery(filters: RecordingFilters): Record<string, string | string[]> {
  const search = filtersToSearch(filters);
  // The URL's one word for a sentiment is the API's bounds.
  search.delete('sentiment');
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length > 1 ? values : values[0]!;
  }
  return { ...query, ...(filters.sentiment ? sentimentBounds[filters.sentiment] : {}) };
}

export const activeFilterCount = (filters: RecordingFilters): number =>
  (filters.stage ? 1 : 0) + (filters.status ? 1 : 0) + (filters.recordedAfter ? 1 : 0) + (filters.recordedBefore ? 1 : 0) + (filters.category ? 1 : 0) + (filters.topic ? 1 : 0) + (filters.sentiment ? 1 : 0) + Object.keys(filters.metadata).length;

/** The recordings list's query for a page URL: its filters, cursor and order (the page and the route's prefetch ask the same). */
export function recordingListQuery(search: URLSearchParams): Record<string, string | string[]> & { sort: 'created_at' | 'recorded_at' } {
  const cursor = search.get('cursor');
  return { sort: search.get('sort') === 'recorded_at' ? 'recorded_at' : 'created_at', ...(cursor ? { cursor } : {}), ...filtersToQuery(filtersFromSearch(search)) };
}
