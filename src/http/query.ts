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

/**
 * CSV when the client asks for it (`Accept: text/csv`), else JSON written by JSON.stringify: for
 * large reports the schema's serializer costs ten times as much and has nothing to strip.
 */
export function sendJsonOrCsv<T>(request: FastifyRequest, reply: FastifyReply, value: T, csv: (value: T) => string): FastifyReply {
  if (/text\/csv/.test(String(request.headers.accept ?? ''))) return reply.type('text/csv; charset=utf-8').serializer((body: unknown) => String(body)).send(csv(value));
  return reply.type('application/json; charset=utf-8').serializer((body: unknown) => JSON.stringify(body)).send(value);
}
