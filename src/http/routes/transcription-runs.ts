// Transcription runs and transcripts: start, card, list, cancel, retry, transcript by run or
// recording, with txt/srt/vtt exports.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Context } from '../../context.ts';
import { exportContentTypes, exportFormats, exportTranscript, type ExportFormat } from '../../services/transcript-export.ts';
import { transcriptionKind } from '../../transcription/transcription-kind.ts';
import {
  retryTranscriptionRun,
  startTranscription,
  transcriptOfRecording,
  transcriptOfRun,
  type TranscriptRow,
} from '../../services/transcription-runs.ts';
import { presentTranscript, presentTranscriptionRun, TranscriptCard, TranscriptionRunCard, transcriptParts } from '../../cards/transcription.ts';
import { mediaResponse, StringEnum, withProblems } from '../schemas/common.ts';
import { runRoutes } from '../run-routes.ts';

const RunParams = Type.Object({ workspace_id: Type.String(), run_id: Type.String() });
const RecordingParams = Type.Object({ workspace_id: Type.String(), recording_id: Type.String() });
const FormatQuery = Type.Object({ format: Type.Optional(StringEnum(exportFormats, { description: 'json (default), txt, srt or vtt' })) });
const exportText = Type.String({ description: 'The transcript as text (format=txt), SubRip (srt) or WebVTT (vtt) cues' });
const TranscriptResponse = {
  200: mediaResponse('The transcript, as JSON or in the export format asked for', { 'application/json': TranscriptCard, 'text/plain': exportText, 'application/x-subrip': exportText, 'text/vtt': exportText }),
};

function sendTranscript(reply: FastifyReply, transcript: TranscriptRow, format: ExportFormat | undefined) {
  if (!format || format === 'json') return reply.send(presentTranscript(transcript));
  return reply.type(exportContentTypes[format]).serializer((body: unknown) => String(body)).send(exportTranscript(format, transcriptParts(transcript).segments));
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
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The transcript of a completed run (409 run_not_completed before)', params: RunParams, querystring: FormatQuery, response: withProblems(TranscriptResponse, 404, 409) } },
    async (request, reply) => sendTranscript(reply, await transcriptOfRun(ctx, request.params.workspace_id, request.params.run_id), request.query.format),
  );

  app.get(
    `${P}/recordings/:recording_id/transcript`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'The latest transcript of a recording (may belong to another run)', params: RecordingParams, querystring: FormatQuery, response: withProblems(TranscriptResponse, 404, 409) } },
    async (request, reply) => sendTranscript(reply, await transcriptOfRecording(ctx, request.params.workspace_id, request.params.recording_id), request.query.format),
  );
};
