// Transcription runs and transcripts: start, card, list, cancel, retry, transcript by run or
// recording, with txt/srt/vtt exports; corrections as new versions of a run's transcript.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Context } from '../../context.ts';
import { exportContentTypes, exportFormats, exportTranscript, type ExportFormat } from './transcript-export.ts';
import { transcriptionKind } from './transcription-kind.ts';
import { retryTranscriptionRun, startTranscription, transcriptOfRecording, transcriptOfRun } from './transcription-runs.ts';
import { correctTranscript, transcriptVersion, transcriptVersions } from './transcript-corrections.ts';
import { presentTranscriptionRun, TranscriptionRunCard } from './transcription-card.ts';
import { DateTime, mediaResponse, Nullable, StringEnum, withProblems } from '../../http/schemas/common.ts';
import { runRoutes } from '../../core/runs/run-routes.ts';
import { presentTranscript, TranscriptCard, transcriptParts } from '../../core/transcripts/transcript.ts';
import { type TranscriptRow } from '../../core/transcripts/transcript.ts';

const RunParams = Type.Object({ workspace_id: Type.String(), run_id: Type.String() });
const RecordingParams = Type.Object({ workspace_id: Type.String(), recording_id: Type.String() });
const formatField = { format: Type.Optional(StringEnum(exportFormats, { description: 'json (default), txt, srt or vtt' })) };
// A parameter the route does not take is a 400 naming it (a misspelt `format` would answer JSON).
const FormatQuery = Type.Object(formatField, { additionalProperties: false });
const RunTranscriptQuery = Type.Object(
  { ...formatField, version: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'An earlier version (1: as transcribed); default the current one' })) },
  { additionalProperties: false },
);
const CorrectionBody = Type.Object(
  {
    words: Type.Optional(
      Type.Array(Type.Object({ index: Type.Integer({ minimum: 0, description: 'The word\'s index in `words`' }), word: Type.String({ minLength: 1, maxLength: 100, description: 'The word as it should be written; it keeps its times' }) }, { additionalProperties: false }), { maxItems: 5000 }),
    ),
    segments: Type.Optional(
      Type.Array(
        Type.Object(
          { index: Type.Integer({ minimum: 0, description: 'The segment\'s index in `segments`' }), text: Type.String({ minLength: 1, maxLength: 10_000, description: 'The segment\'s whole text as it should be: the words it still has keep their times and confidence; new words take the time of those they replace' }) },
          { additionalProperties: false },
        ),
        { maxItems: 2000 },
      ),
    ),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'The version corrected: refused with 409 transcript_changed when the transcript has moved on (a version it never had is a 400)' })),
  },
  { additionalProperties: false },
);
const TranscriptVersion = Type.Object({
  id: Type.String(),
  version: Type.Integer(),
  previous_transcript_id: Nullable(Type.String()),
  corrected_by: Nullable(Type.String()),
  current: Type.Boolean(),
  created_at: DateTime,
});
const exportText = Type.String({ description: 'The transcript as text (format=txt), SubRip (srt) or WebVTT (vtt) cues' });
const TranscriptResponse = {
  200: mediaResponse('The transcript, as JSON or in the export format asked for', { 'application/json': TranscriptCard, 'text/plain': exportText, 'application/x-subrip': exportText, 'text/vtt': exportText }),
};

function sendTranscript(reply: FastifyReply, transcript: TranscriptRow, format: ExportFormat | undefined) {
  if (!format || format === 'json') return reply.send(presentTranscript(transcript));
  const parts = transcriptParts(transcript);
  return reply.type(exportContentTypes[format]).serializer((body: unknown) => String(body)).send(exportTranscript(format, parts.segments, parts.words));
}

export const transcriptionRunRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const P = '/api/v1/workspaces/:workspace_id';
  const tags = ['transcription-runs'];

  app.post(
    `${P}/recordings/:recording_id/transcription-runs`,
    {
      config: { scope: 'transcripts:write', createsWork: true },
      schema: {
        tags,
        summary: 'Start a transcription run',
        description: 'Answers 202 with the run (status queued). A recording still downloading answers 409 recording_not_ready; one still being prepared is accepted and the run waits.',
        params: RecordingParams,
        body: Type.Optional(Type.Object({ transcription_scenario_id: Type.Optional(Type.String({ description: 'sct-…; default: the workspace\'s automatic or first scenario' })) }, { additionalProperties: false })),
        response: withProblems({ 202: TranscriptionRunCard }, 402, 404, 409),
      },
    },
    async (request, reply) =>
      reply.code(202).send(presentTranscriptionRun(await startTranscription(ctx, request.params.workspace_id, request.params.recording_id, request.body?.transcription_scenario_id))),
  );

  await app.register(
    runRoutes(ctx, { kind: transcriptionKind, path: 'transcription-runs', card: TranscriptionRunCard, scopes: { read: 'transcripts:read', write: 'transcripts:write' }, tags, retry: retryTranscriptionRun }),
  );

  app.get(
    `${P}/transcription-runs/:run_id/transcript`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The transcript of a completed run, its current version unless another is asked for (409 run_not_completed before)', params: RunParams, querystring: RunTranscriptQuery, response: withProblems(TranscriptResponse, 404, 409) } },
    async (request, reply) => {
      const { workspace_id, run_id } = request.params;
      const transcript = request.query.version === undefined ? await transcriptOfRun(ctx, workspace_id, run_id) : await transcriptVersion(ctx, workspace_id, run_id, request.query.version);
      return sendTranscript(reply, transcript, request.query.format);
    },
  );

  app.patch(
    `${P}/transcription-runs/:run_id/transcript`,
    {
      config: { scope: 'transcripts:write' },
      schema: {
        tags,
        summary: 'Correct a transcript: words or segments rewritten make its next version, the previous kept',
        description:
          'A word keeps its times; a segment rewritten with as many words keeps each time, with more or fewer they share the time its words took. The new version goes through the run\'s redaction, becomes the run\'s and the recording\'s transcript (search and analysis read it), starts the automatic analysis scenario and sends `transcript.corrected`.',
        params: RunParams,
        body: CorrectionBody,
        response: withProblems({ 200: TranscriptCard }, 404, 409),
      },
    },
    async (request) => {
      const principal = request.principal;
      const by = principal?.key?.id ?? principal?.session?.account_id ?? null;
      return presentTranscript(await correctTranscript(ctx, request.params.workspace_id, request.params.run_id, request.body, by));
    },
  );

  app.get(
    `${P}/transcription-runs/:run_id/transcript/versions`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The versions of a run\'s transcript, oldest first (1: as transcribed)', params: RunParams, response: withProblems({ 200: Type.Object({ data: Type.Array(TranscriptVersion) }) }, 404) } },
    async (request) => ({ data: await transcriptVersions(ctx, request.params.workspace_id, request.params.run_id) }),
  );

  app.get(
    `${P}/recordings/:recording_id/transcript`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The latest transcript of a recording (may belong to another run)', params: RecordingParams, querystring: FormatQuery, response: withProblems(TranscriptResponse, 404, 409) } },
    async (request, reply) => sendTranscript(reply, await transcriptOfRecording(ctx, request.params.workspace_id, request.params.recording_id), request.query.format),
  );
};
