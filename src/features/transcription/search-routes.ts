// P/search: words and "exact phrases" across the workspace's transcripts.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { searchTranscripts } from './search.ts';
import { DateTime, JsonObject, Nullable, pagingFields, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { filterQuery, recordingFilterFields, recordingFiltersOf } from '../../core/recordings/recording-filters.ts';

const SearchQuery = filterQuery(
  {
    q: Type.String({ minLength: 1, maxLength: 500, description: 'Words (stemmed: "refunds" finds "refund"), "exact phrases" in double quotes, `or`, and -excluded words' }),
    speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only segments of this speaker' })),
    // The recordings' filters, as the list takes them (status, times, category, sentiment, topic).
    ...recordingFilterFields,
    ...pagingFields(20, 100),
  },
  { description: 'Also `metadata.<field>=<value>` of the recordings, as on the list' },
);

const SearchHit = Type.Object({
  recording_id: Type.String(),
  transcript_id: Type.String(),
  start: Type.Number({ description: 'Seconds: the start of the segment that matches' }),
  at: Type.Number({ description: 'Seconds: where the match is said, the start of the first word of the segment that matches a search word (a phrase: the segment\'s start)' }),
  end: Type.Number(),
  speaker: Nullable(Type.String()),
  snippet: Type.String({ description: 'The segment around the match, each matching word between <mark> and </mark>' }),
  matches: Type.Integer({ minimum: 1, description: 'How many segments of this transcript match (of the speaker asked for); the hit is the first of them' }),
  recording: Type.Object(
    { filename: Type.String(), recorded_at: DateTime, metadata: JsonObject },
    { description: 'The call the hit is in: its file name, when it took place and its metadata (e.g. the agent)' },
  ),
});

export const searchRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  app.get(
    '/api/v1/workspaces/:workspace_id/search',
    {
      config: { scope: ['transcripts:read', 'recordings:read'] },
      schema: {
        tags: ['transcription'],
        summary: 'Search transcripts: the first matching segment of each matching transcript, newest first',
        params: WorkspaceParams,
        querystring: SearchQuery,
        response: withProblems({ 200: Type.Object({ data: Type.Array(SearchHit), next_cursor: Nullable(Type.String()) }) }),
      },
    },
    async (request) =>
      searchTranscripts(ctx, request.params.workspace_id, {
        q: request.query.q,
        speaker: request.query.speaker,
        ...recordingFiltersOf(request.query),
        limit: request.query.limit,
        offset: request.query.offset,
        cursor: request.query.cursor,
      }),
  );
};
