// Query-string helpers shared by routes: the recording filters (`status`, dates,
// `metadata.<field>=<value>`), and an answer in JSON or, when asked, CSV.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RecordingFilters } from '../services/recording-filters.ts';

/** The `metadata.<field>` parameters of a query string, by field path. */
export function metadataFilters(query: Record<string, unknown>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith('metadata.')) filters[name.slice('metadata.'.length)] = String(value);
  }
  return filters;
}

/** The recording filters of a query string, as the list, the reports and the answer table read them. */
export function recordingFiltersOf(query: Record<string, unknown>): RecordingFilters {
  return {
    status: query.status as string | undefined,
    created_after: query.created_after as string | undefined,
    created_before: query.created_before as string | undefined,
    recorded_after: query.recorded_after as string | undefined,
    recorded_before: query.recorded_before as string | undefined,
    metadata: metadataFilters(query),
  };
}

/**
 * CSV when the client asks for it (`Accept: text/csv`), else JSON written by JSON.stringify: for
 * large reports the schema's serializer costs ten times as much and has nothing to strip.
 */
export function sendJsonOrCsv<T>(request: FastifyRequest, reply: FastifyReply, value: T, csv: (value: T) => string): FastifyReply {
  if (/text\/csv/.test(String(request.headers.accept ?? ''))) return reply.type('text/csv; charset=utf-8').serializer((body: unknown) => String(body)).send(csv(value));
  return reply.type('application/json; charset=utf-8').serializer((body: unknown) => JSON.stringify(body)).send(value);
}
