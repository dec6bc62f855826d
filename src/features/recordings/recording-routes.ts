// P/recordings: upload, import, import retry, card, list, delete.
import { assertScope } from '../../http/request-context.ts';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { isId } from '../../ids.ts';
import {
  checkRetention,
  checkRecordedAt,
  createFromUpload,
  createImport,
  deleteRecording,
  listRecordings,
  parseMetadata,
  retryImport,
  sanitizeFilename,
  type Recording,
} from '../../core/recordings/recordings.ts';
import { readUpload } from '../../core/recordings/multipart-upload.ts';
import { CONTENT_FILTER_NEEDS, filterQuery, readsWhatCallsSay, recordingFilterFields, recordingFiltersOf } from '../../core/recordings/recording-filters.ts';
import { presentRecording, RecordingCard } from './recording-card.ts';
import { pipelinesOf, recordingWithPipeline } from '../../core/recordings/pipeline-status.ts';
import { updateRecording } from './recording-edits.ts';
import { JsonObject, Page, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';

const RecordingParams = Type.Object({ workspace_id: Type.String(), recording_id: Type.String() });

const UploadForm = Type.Object({
  file: Type.String({ format: 'binary', description: 'WAV, MP3, MP4/M4A, OGG (Vorbis/Opus) or FLAC' }),
  metadata: Type.Optional(Type.String({ description: 'A JSON object, as a string (at most 64 KiB)' })),
  retention_days: Type.Optional(Type.Integer({ description: 'Days to keep the audio; within the plan bounds (default 7)' })),
  recorded_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the call took place (default: the file\'s own creation time where its container has one, else now)' })),
  filename: Type.Optional(Type.String({ maxLength: 255, description: 'The name to keep, as an import takes it (default: the file part\'s own name)' })),
});

const ImportBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 4096, description: 'A public http or https URL' }),
    filename: Type.Optional(Type.String({ maxLength: 255 })),
    metadata: Type.Optional(JsonObject),
    retention_days: Type.Optional(Type.Integer()),
    recorded_at: Type.Optional(Type.String({ description: 'When the call took place, RFC 3339 (default: the file\'s own creation time where its container has one, else now)' })),
  },
  { additionalProperties: false },
);

const RetryBody = Type.Union([Type.Object({ url: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })) }, { additionalProperties: false }), Type.Null()]);

const ListQuery = filterQuery(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    ...recordingFilterFields,
    sort: Type.Union([Type.Literal('created_at'), Type.Literal('recorded_at')], {
      default: 'created_at',
      description: 'Newest first by upload time (created_at) or by when the call took place (recorded_at); a cursor continues the sort it came from',
    }),
  },
  { description: 'Also `metadata.<field>=<value>` (exact match; nested fields with dots; several are AND-ed)' },
);

/** The card with its pipeline read from its runs. */
async function withPipeline(ctx: Context, recording: Recording) {
  return presentRecording(recording, (await pipelinesOf(ctx.db, [recording.id])).get(recording.id));
}

export const recordingRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const base = '/api/v1/workspaces/:workspace_id/recordings';

  app.post(
    base,
    {
      config: { scope: 'recordings:write', createsWork: true, docBody: UploadForm },
      schema: {
        tags: ['recordings'],
        summary: 'Upload a recording (multipart/form-data, streamed)',
        description: 'Answers 202 with the card; audio preparation runs asynchronously.',
        params: WorkspaceParams,
        response: withProblems({ 202: RecordingCard }, 402, 413, 415, 507),
      },
    },
    async (request, reply) => {
      const upload = await readUpload(ctx, request, { fields: ['metadata', 'retention_days', 'recorded_at', 'filename'] });
      let recording;
      try {
        // The name given is kept as an import keeps its own: too long is refused, not cut (a file's own name is cut, keeping its extension).
        if (upload.fields.filename !== undefined && [...upload.fields.filename].length > 255) throw invalid('filename', 'must NOT have more than 255 characters');
        const metadata = parseMetadata(ctx, upload.fields.metadata);
        const retentionDays = checkRetention(ctx, upload.fields.retention_days);
        const recordedAt = checkRecordedAt(upload.fields.recorded_at);
        recording = await createFromUpload(ctx, request.params.workspace_id, {
          recordedAt,
          audio: upload.audio,
          filename: sanitizeFilename(upload.fields.filename || upload.filename, 'upload'),
          contentType: upload.contentType,
          metadata,
          retentionDays,
        });
      } catch (error) {
        await ctx.blobs.removeTemp(upload.audio.tempPath);
        throw error;
      }
      return reply.code(202).send(presentRecording(recording));
    },
  );

  app.post(
    `${base}/import`,
    {
      config: { scope: 'recordings:write', createsWork: true },
      schema: {
        tags: ['recordings'],
        summary: 'Import a recording from a public URL',
        description: 'Answers 202 with status download_pending. Transient failures are retried with backoff (download_retry_wait).',
        params: WorkspaceParams,
        body: ImportBody,
        response: withProblems({ 202: RecordingCard }, 402),
      },
    },
    async (request, reply) => reply.code(202).send(presentRecording(await createImport(ctx, request.params.workspace_id, request.body))),
  );

  app.post(
    `${base}/:recording_id/import/retry`,
    {
      config: { scope: 'recordings:write', createsWork: true },
      schema: {
        tags: ['recordings'],
        summary: 'Retry a failed import, optionally from a new URL',
        params: RecordingParams,
        body: Type.Optional(RetryBody),
        response: withProblems({ 202: RecordingCard }, 402, 404, 409),
      },
    },
    async (request, reply) => {
      const recording = await retryImport(ctx, request.params.workspace_id, request.params.recording_id, request.body?.url);
      return reply.code(202).send(presentRecording(recording));
    },
  );

  app.get(
    `${base}/:recording_id`,
    {
      config: { scope: 'recordings:read' },
      schema: { tags: ['recordings'], summary: 'The recording card', params: RecordingParams, response: withProblems({ 200: RecordingCard }, 404) },
    },
    async (request) => {
      const { workspace_id: workspaceId, recording_id: id } = request.params;
      const found = isId('recording', id) ? await recordingWithPipeline(ctx.db, workspaceId, id) : undefined;
      if (!found) throw notFound(`recording ${id}`);
      const { pipeline_now: pipeline, ...recording } = found;
      return presentRecording(recording, pipeline);
    },
  );

  app.get(
    base,
    {
      config: { scope: 'recordings:read' },
      schema: {
        tags: ['recordings'],
        summary: 'List recordings, newest first (by upload or by call time), with cursor paging and filters',
        description: 'Filtering by `topic` or by sentiment (`sentiment_min`, `sentiment_max`) reads what the calls say: it needs `transcripts:read` beside `recordings:read`.',
        params: WorkspaceParams,
        querystring: ListQuery,
        response: withProblems({ 200: Page(RecordingCard) }),
      },
    },
    async (request) => {
      const query = request.query;
      // What the calls say (their topics, their speakers' sentiment) is the transcripts' to tell.
      if (readsWhatCallsSay(recordingFiltersOf(query))) assertScope(request, 'transcripts:read', CONTENT_FILTER_NEEDS);
      const page = await listRecordings(ctx, request.params.workspace_id, {
        limit: query.limit,
        offset: query.offset,
        cursor: query.cursor,
        ...recordingFiltersOf(query),
        sort: query.sort,
      });
      return { data: page.data.map((recording) => presentRecording(recording, recording.pipeline)), next_cursor: page.next_cursor };
    },
  );

  app.patch(
    `${base}/:recording_id`,
    {
      config: { scope: 'recordings:write' },
      schema: {
        tags: ['recordings'],
        summary: 'Edit a recording: its metadata (replaced whole), when the call took place, and how long its audio is kept',
        description:
          'Reports use the new values at once; a `recording.updated` webhook event carries the new card. `retention_days` sets `expires_at` to the upload time plus that many days (shorter or longer; a date already past deletes the audio at the next sweep); once the audio is deleted it is 409 `audio_expired`.',
        params: RecordingParams,
        body: Type.Object(
          {
            metadata: Type.Optional(JsonObject),
            recorded_at: Type.Optional(Type.String({ description: 'RFC 3339, with a time zone' })),
            retention_days: Type.Optional(Type.Integer({ description: 'Days the audio is kept, counted from the upload, within the server\'s range (HARK_RETENTION_MIN_DAYS to HARK_RETENTION_MAX_DAYS)' })),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: withProblems({ 200: RecordingCard }, 404, 409),
      },
    },
    async (request) => withPipeline(ctx, await updateRecording(ctx, request.params.workspace_id, request.params.recording_id, request.body)),
  );

  app.delete(
    `${base}/:recording_id`,
    {
      config: { scope: 'recordings:write' },
      schema: { tags: ['recordings'], summary: 'Delete a recording: its audio and its card', params: RecordingParams, response: withProblems({ 204: Type.Null() }, 404) },
    },
    async (request, reply) => {
      await deleteRecording(ctx, request.params.workspace_id, request.params.recording_id);
      return reply.code(204).send(null);
    },
  );
};
