// A recording's audio for playback and download with HTTP Range, and its waveform to draw.
import { Type } from '@sinclair/typebox';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { audioVariants, recordingAudio, recordingWaveform } from './recording-audio.ts';
import { mediaResponse, StringEnum, withProblems } from '../../http/schemas/common.ts';

/** Streamed bytes: described as binary in the document, never serialized. */
const AudioBody = Type.Unsafe<Readable>({ type: 'string', format: 'binary' });
/** Sent with the recording's own media type (the prepared variant: audio/wav). */
const audioResponse = (description: string) => mediaResponse(description, { 'audio/*': AudioBody, 'application/octet-stream': AudioBody });
const AudioParams = Type.Object({ workspace_id: Type.String(), recording_id: Type.String() });
const AudioQuery = Type.Object({
  variant: Type.Optional(StringEnum(audioVariants, { description: 'original (default): the file as uploaded; prepared: the 16 kHz mono WAV' })),
  download: Type.Optional(Type.Boolean({ description: 'Send as an attachment' })),
}, { additionalProperties: false });

export const audioRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const P = '/api/v1/workspaces/:workspace_id';

  app.get(
    `${P}/recordings/:recording_id/audio`,
    {
      config: { scope: 'recordings:read' },
      schema: {
        tags: ['recordings'],
        summary: 'A recording\'s audio, with HTTP Range (206) for players',
        params: AudioParams,
        querystring: AudioQuery,
        response: withProblems({ 200: audioResponse('The audio'), 206: audioResponse('The requested range of the audio') }, 404, 409, 416),
      },
    },
    async (request, reply) => {
      const audio = await recordingAudio(ctx, request.params.workspace_id, request.params.recording_id, request.query.variant ?? 'original', request.headers.range);
      const disposition = request.query.download ? 'attachment' : 'inline';
      reply
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=0')
        .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(audio.filename)}`)
        .type(audio.contentType);
      if (!audio.range) return reply.header('content-length', String(audio.size)).send(audio.body);
      const { start, end } = audio.range;
      return reply
        .code(206)
        .header('content-range', `bytes ${start}-${end}/${audio.size}`)
        .header('content-length', String(end - start + 1))
        .send(audio.body);
    },
  );

  app.get(
    `${P}/recordings/:recording_id/waveform`,
    {
      config: { scope: 'recordings:read' },
      schema: {
        tags: ['recordings'],
        summary: 'A recording\'s waveform to draw: the loudest level of each of 1,600 equal slices of its audio, 0 to 1',
        description: 'Drawn from what playback serves (the redacted copy once there is one); computed on first use and kept with the audio.',
        params: AudioParams,
        response: withProblems({ 200: Type.Object({ duration_seconds: Type.Number(), peaks: Type.Array(Type.Number({ minimum: 0, maximum: 1 })) }) }, 404, 409),
      },
    },
    async (request) => recordingWaveform(ctx, request.params.workspace_id, request.params.recording_id),
  );
};
