// POST /v1/audio/transcriptions, compatible with OpenAI's API (and its client libraries): answered
// when the transcript is ready, with errors in OpenAI's error shape.
import type { SpeakerWord } from '../../engines/transcription/types.ts';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Context } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { transcribeNow } from './sync-transcription.ts';
import { exportTranscript } from './transcript-export.ts';
import { workspaceOf } from '../../http/request-context.ts';
import { readUpload } from '../../core/recordings/multipart-upload.ts';
import { mediaResponse, Nullable } from '../../http/schemas/common.ts';
import { settleUnreadBody } from '../../http/unread-body.ts';
import { toAppError } from '../../http/error-handler.ts';
import { transcriptParts } from '../../core/transcripts/transcript.ts';

const OpenAiError = Type.Object({
  error: Type.Object({ message: Type.String(), type: Type.String(), param: Nullable(Type.String()), code: Nullable(Type.String()) }),
});
const VerboseJson = Type.Object({
  task: Type.Literal('transcribe'),
  language: Type.String(),
  duration: Type.Number(),
  text: Type.String(),
  segments: Type.Array(Type.Object({ id: Type.Integer(), seek: Type.Number(), start: Type.Number(), end: Type.Number(), text: Type.String(), tokens: Type.Array(Type.Integer()), temperature: Type.Number(), avg_logprob: Type.Number(), compression_ratio: Type.Number(), no_speech_prob: Type.Number() })),
  words: Type.Optional(Type.Array(Type.Object({ word: Type.String(), start: Type.Number(), end: Type.Number() }))),
});

const formats = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;
type Format = (typeof formats)[number];

/**
 * Words as OpenAI gives them: the text's own words without the marks around them, so they spell
 * the text ("2:30", "PM", not "two", "thirty", "pm"); the words a formatted number's first word
 * writes for are part of it, and lengthen it.
 */
function openAiWords(words: readonly (SpeakerWord & { punctuated_word?: string })[]): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const w of words) {
    const previous = out.at(-1);
    if (w.punctuated_word === '' && previous) {
      previous.end = Math.max(previous.end, w.end);
      continue;
    }
    const shown = (w.punctuated_word ?? w.word).replace(/[.,?!;:]+$/, '');
    out.push({ word: shown || w.word, start: w.start, end: w.end });
  }
  return out;
}

const languageNames: Record<string, string> = { en: 'english', de: 'german', fr: 'french', es: 'spanish', it: 'italian', nl: 'dutch', pt: 'portuguese', ru: 'russian', ja: 'japanese', zh: 'chinese' };

/** A true/false flag as a form field or query parameter ("true", "false", "1", "0"); undefined where not given. */
function flag(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const written = value.trim().toLowerCase();
  if (written === 'true' || written === '1') return true;
  if (written === 'false' || written === '0') return false;
  throw invalid(name, 'must be true or false');
}

const openAiType = (status: number) => (status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error');

export async function openAiCompatRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The same codes as Hark's own routes give (a query parameter's mistake as a form field's).
    const appError = toAppError(error);
    const status = appError.status;
    if (status >= 500) request.log.error({ err: error }, 'transcription request failed');
    if (appError.headers) for (const [name, value] of Object.entries(appError.headers)) reply.header(name, value);
    const param = appError.fieldErrors?.[0]?.path.replace(/^(querystring|body|params|headers)\//, '') ?? null;
    settleUnreadBody(request, reply);
    return reply.code(status).type('application/json; charset=utf-8').send({ error: { message: appError.detail ?? appError.message, type: openAiType(status), param, code: appError.code } });
  });

  app.post(
    '/v1/audio/transcriptions',
    {
      config: { scope: ['recordings:write', 'transcripts:write'], createsWork: true, form: true },
      schema: {
        tags: ['openai-compatible'],
        querystring: Type.Object({ format: Type.Optional(Type.Boolean({ description: 'Smart formatting for this request (punctuation, casing, numbers as digits); the scenario\'s `format` where not given' })) }, { additionalProperties: true }),
        summary: 'OpenAI-compatible synchronous transcription (multipart: file, model, language, prompt, response_format, timestamp_granularities[], and Hark\'s vocabulary[]: terms added to the scenario\'s vocabulary for this request, and format: true or false, smart formatting for this request, also a query parameter)',
        description: '`model` is a transcription scenario id, an engine/model pair (e.g. `pocketsphinx/en-us`), or any other name for the workspace\'s scenario. The recording and run stay visible in the API. Errors use OpenAI\'s shape.',
        response: {
          200: mediaResponse('The transcript in the response_format asked for: json ({text}), verbose_json, text, srt or vtt', {
            'application/json': Type.Union([VerboseJson, Type.Object({ text: Type.String() })]),
            'text/plain': Type.String(),
            'application/x-subrip': Type.String(),
            'text/vtt': Type.String(),
          }),
          ...Object.fromEntries([400, 401, 402, 403, 413, 415, 429, 431, 502, 503, 507].map((status) => [status, mediaResponse(`An error in OpenAI's shape (HTTP ${status})`, { 'application/json': OpenAiError })])),
        },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(ctx, request, { repeats: true });
      try {
        const fields = upload.fields;
        const format = (fields.response_format ?? 'json') as Format;
        if (!formats.includes(format)) throw invalid('response_format', `must be one of ${formats.join(', ')}`);
        if (!fields.model) throw invalid('model', 'is required');
        const granularities = upload.entries
          .filter(([name]) => name.startsWith('timestamp_granularities'))
          .map(([, value]) => value);
        const unknown = granularities.find((g) => g !== 'word' && g !== 'segment');
        if (unknown !== undefined) throw invalid('timestamp_granularities[]', `"${unknown}" is not one of word, segment`);
        if (granularities.length > 0 && format !== 'verbose_json') throw invalid('timestamp_granularities[]', 'needs response_format verbose_json');
        if (fields.temperature !== undefined) {
          const temperature = Number(fields.temperature);
          if (fields.temperature.trim() === '' || !Number.isFinite(temperature) || temperature < 0 || temperature > 1) throw invalid('temperature', 'must be a number from 0 to 1');
        }
        // Smart formatting, as a form field or a query parameter (the form's wins).
        const smartFormat = flag('format', fields.format) ?? (request.query as { format?: boolean }).format;
        const vocabulary = upload.entries.filter(([name]) => name === 'vocabulary[]' || name === 'vocabulary').map(([, value]) => value);
        const closed = new AbortController();
        reply.raw.once('close', () => closed.abort());
        const { transcript } = await transcribeNow(
          ctx,
          workspaceOf(request),
          { audio: upload.audio, filename: upload.filename, contentType: upload.contentType, model: fields.model, language: fields.language, prompt: fields.prompt, vocabulary, format: smartFormat },
          closed.signal,
        );
        const { segments, words } = transcriptParts(transcript);
        if (format === 'text') return reply.type('text/plain; charset=utf-8').send(`${transcript.text}\n`);
        if (format === 'srt' || format === 'vtt') return reply.type(format === 'srt' ? 'application/x-subrip' : 'text/vtt').send(exportTranscript(format, segments, words));
        if (format === 'json') return { text: transcript.text };
        return {
          task: 'transcribe',
          language: languageNames[transcript.language] ?? transcript.language,
          duration: transcript.duration_seconds ?? 0,
          text: transcript.text,
          segments: segments.map((s, id) => ({ id, seek: 0, start: s.start, end: s.end, text: s.text, tokens: [], temperature: 0, avg_logprob: 0, compression_ratio: 0, no_speech_prob: 0 })),
          ...(granularities.includes('word') ? { words: openAiWords(words) } : {}),
        };
      } catch (error) {
        await ctx.blobs.removeTemp(upload.audio.tempPath);
        throw error;
      }
    },
  );
}
