// Query-string helpers shared by routes: the `metadata.<field>=<value>` parameters, and an answer
// in JSON or, when asked, CSV.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The `metadata.<field>` parameters of a query string, by field path. */
export function metadataFilters(query: Record<string, unknown>): Record<string, string[]> {
  // No prototype: `metadata.__proto__` is a field like any other (it set the prototype, and the filter vanished).
  const filters: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [name, value] of Object.entries(query)) {
    // A field named more than once (`metadata.queue=billing&metadata.queue=sales`) matches any of its values.
    if (name.startsWith('metadata.')) filters[name.slice('metadata.'.length)] = (Array.isArray(value) ? value : [value]).map(String);
  }
  return filters;
}

/** The quality each media range of an Accept header gives, by range ("text/csv" → 1). */
function qualities(accept: string): Map<string, number> {
  const ranges = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!range) continue;
    const q = params.find((param) => /^q\s*=/.test(param));
    const quality = q === undefined ? 1 : Number(q.replace(/^q\s*=\s*/, ''));
    ranges.set(range, Number.isFinite(quality) ? Math.min(1, Math.max(0, quality)) : 0);
  }
  return ranges;
}

/**
 * Whether an Accept header asks for CSV: it names `text/csv` with a quality above 0, and at least
 * the quality JSON gets (from `application/json`, `application/*` or `*\/*`, the most specific
 * that is named). A wildcard alone (curl's `*\/*`) keeps JSON; `text/csv;q=0` refuses CSV.
 */
export function asksForCsv(accept: string | undefined): boolean {
  const ranges = qualities(accept ?? '');
  const csv = ranges.get('text/csv') ?? 0;
  const json = ranges.get('application/json') ?? ranges.get('application/*') ?? ranges.get('*/*') ?? 0;
  return csv > 0 && csv >= json;
}

/**
 * CSV when the client asks for it (`Accept: text/csv`), else JSON written by JSON.stringify: for
 * large reports the schema's serializer costs ten times as much and has nothing to strip.
 */
export function sendJsonOrCsv<T>(request: FastifyRequest, reply: FastifyReply, value: T, csv: (value: T) => string): FastifyReply {
  if (asksForCsv(request.headers.accept)) return reply.type('text/csv; charset=utf-8').serializer((body: unknown) => String(body)).send(csv(value));
  return reply.type('application/json; charset=utf-8').serializer((body: unknown) => JSON.stringify(body)).send(value);
}
