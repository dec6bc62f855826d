// Transcription runs and transcripts: start, card, list, cancel, retry, transcript by run or
// recording, with txt/srt/vtt exports.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Context } from '../../context.ts';
import type { Segment } from '../../engines/transcription/types.ts';
import { exportContentTypes, exportFormats, exportTranscript, type ExportFormat } from '../../services/transcript-export.ts';
import {
  cancelTranscriptionRun,
  getTranscriptionRun,
  listTranscriptionRuns,
  retryTranscriptionRun,
  startTranscription,
  transcriptOfRecording,
  transcriptOfRun,
  type TranscriptRow,
} from '../../services/transcription-runs.ts';
import { presentTranscript, presentTranscriptionRun, TranscriptCard, TranscriptionRunCard } from '../presenters/transcription.ts';
import { StringEnum, Page, withProblems } from '../schemas/common.ts';

const RunParams = Type.Object({ workspace_id: Type.String(), run_id: Type.String() });
const RecordingParams = Type.Object({ workspace_id: Type.String(), recording_id: Type.String() });
const FormatQuery = Type.Object({ format: Type.Optional(StringEnum(exportFormats, { description: 'json (default), txt, srt or vtt' })) });
const TranscriptResponse = { 200: TranscriptCard };

function sendTranscript(reply: FastifyReply, transcript: TranscriptRow, format: ExportFormat | undefined) {
  if (!format || format === 'json') return reply.send(presentTranscript(transcript));
  return reply.type(exportContentTypes[format]).serializer((body: unknown) => String(body)).send(exportTranscript(format, transcript.segments as Segment[]));
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

  app.get(`${P}/transcription-runs/:run_id`, { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'A transcription run card', params: RunParams, response: withProblems({ 200: TranscriptionRunCard }, 404) } }, async (request) =>
    presentTranscriptionRun(await getTranscriptionRun(ctx.db, request.params.workspace_id, request.params.run_id)),
  );

  app.get(
    `${P}/transcription-runs`,
    {
      config: { scope: 'transcripts:read' },
      schema: {
        tags,
        summary: 'List transcription runs, newest first',
        params: Type.Object({ workspace_id: Type.String() }),
        querystring: Type.Object({
          jobId: Type.Optional(Type.String({ description: 'An execution id: its child runs' })),
          recording_id: Type.Optional(Type.String()),
          status: Type.Optional(Type.String({ description: 'Comma-separated statuses' })),
          limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
          cursor: Type.Optional(Type.String({ maxLength: 100 })),
        }),
        response: withProblems({ 200: Page(TranscriptionRunCard) }),
      },
    },
    async (request) => {
      const page = await listTranscriptionRuns(ctx, request.params.workspace_id, request.query);
      return { data: page.data.map(presentTranscriptionRun), next_cursor: page.next_cursor };
    },
  );

  app.post(`${P}/transcription-runs/:run_id/cancel`, { config: { scope: 'transcripts:write' }, schema: { tags, summary: 'Cancel a queued or running run', params: RunParams, response: withProblems({ 200: TranscriptionRunCard }, 404, 409) } }, async (request) =>
    presentTranscriptionRun(await cancelTranscriptionRun(ctx, request.params.workspace_id, request.params.run_id)),
  );

  app.post(
    `${P}/transcription-runs/:run_id/retry`,
    { config: { scope: 'transcripts:write', createsWork: true }, schema: { tags, summary: 'Retry a failed run: a new run with retry_of; the original stays', params: RunParams, response: withProblems({ 202: TranscriptionRunCard }, 402, 404, 409) } },
    async (request, reply) => reply.code(202).send(presentTranscriptionRun(await retryTranscriptionRun(ctx, request.params.workspace_id, request.params.run_id))),
  );

  app.get(
    `${P}/transcription-runs/:run_id/transcript`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The transcript of a completed run (409 run_not_completed before)', params: RunParams, querystring: FormatQuery, response: withProblems(TranscriptResponse, 404, 409) } },
    async (request, reply) => sendTranscript(reply, await transcriptOfRun(ctx, request.params.workspace_id, request.params.run_id), request.query.format),
  );

  app.get(
    `${P}/recordings/:recording_id/transcript`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The latest transcript of a recording (may belong to another run)', params: RecordingParams, querystring: FormatQuery, response: withProblems(TranscriptResponse, 404, 409) } },
    async (request, reply) => sendTranscript(reply, await transcriptOfRecording(ctx, request.params.workspace_id, request.params.recording_id), request.query.format),
  );
};
