// The alternative upload form: POST /v1/files (the file plus any fields, kept as string metadata)
// and GET /v1/files/{id} with ?wait= long polling. The recordings service is underneath.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { fileView, waitForFile } from './file-view.ts';
import { checkMetadata, createFromUpload, sanitizeFilename } from '../../core/recordings/recordings.ts';
import { workspaceOf } from '../../http/request-context.ts';
import { readUpload } from '../../core/recordings/multipart-upload.ts';
import { JsonObject, Nullable, withProblems } from '../../http/schemas/common.ts';
import { TranscriptCard } from '../../core/transcripts/transcript.ts';

const FileCard = Type.Object({
  file_id: Type.String({ description: 'The recording id (fl-…)' }),
  status: Type.String({ description: 'queued | processing | completed | failed, for the whole pipeline' }),
  metadata: JsonObject,
});
const FileView = Type.Composite([
  FileCard,
  Type.Object({
    error_code: Nullable(Type.String()),
    transcript: Nullable(TranscriptCard),
    analysis: Nullable(
      Type.Object({
        summary: Type.String(),
        answers: Type.Array(Type.Object({ question: Type.String(), answer: Type.Union([Type.Boolean(), Type.String()]) })),
        tokens_used: Type.Integer(),
      }),
    ),
  }),
]);

export const fileRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const tags = ['files'];
  app.post(
    '/v1/files',
    {
      // The upload starts the transcription and analysis runs of the pipeline too.
      config: { scope: ['recordings:write', 'transcripts:write', 'analysis:write'], createsWork: true, docBody: Type.Object({ file: Type.String({ format: 'binary' }) }, { additionalProperties: Type.String() }) },
      schema: {
        tags,
        summary: 'Upload a file into the key\'s workspace; every form field beside `file` is kept as string metadata, unchanged',
        description: 'The workspace\'s automatic scenarios run (its first scenarios when none is automatic), so GET /v1/files/{id} ends with a transcript and an analysis.',
        response: withProblems({ 202: FileCard }, 402, 413, 415, 507),
      },
    },
    async (request, reply) => {
      const upload = await readUpload(ctx, request, { repeats: false });
      try {
        // Every field is metadata, as CONTRACT.md has it ("retention_days" too: the workspace's default retention applies).
        const fields = upload.fields;
        const recording = await createFromUpload(ctx, workspaceOf(request), {
          recordedAt: null,
          audio: upload.audio,
          filename: sanitizeFilename(upload.filename, 'upload'),
          contentType: upload.contentType,
          metadata: checkMetadata(ctx, fields),
          retentionDays: null,
          pipeline: true,
        });
        return reply.code(202).send({ file_id: recording.id, status: 'queued', metadata: fields });
      } catch (error) {
        await ctx.blobs.removeTemp(upload.audio.tempPath);
        throw error;
      }
    },
  );
  app.get(
    '/v1/files/:file_id',
    {
      // The view carries the transcript and the analysis: it needs the scopes that read them.
      config: { scope: ['recordings:read', 'transcripts:read', 'analysis:read'] },
      schema: {
        tags,
        summary: 'The file with its transcript and analysis (analysis null until a result exists)',
        description: '`wait=N` (at most 60) holds the request until the pipeline ends or N seconds pass.',
        params: Type.Object({ file_id: Type.String() }),
        querystring: Type.Object({ wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 60 })) }, { additionalProperties: false }),
        response: withProblems({ 200: FileView }, 404),
      },
    },
    async (request, reply) => {
      const workspaceId = workspaceOf(request);
      if (!request.query.wait) return fileView(ctx, workspaceId, request.params.file_id);
      const closed = new AbortController();
      reply.raw.once('close', () => closed.abort());
      return waitForFile(ctx, workspaceId, request.params.file_id, request.query.wait, closed.signal);
    },
  );
};
