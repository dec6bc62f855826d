// Synchronous transcription for the OpenAI-compatible endpoint: an ordinary recording and run in
// the key's workspace (visible in the API afterwards), awaited until the run ends: woken by the
// run's (or the recording's) notice that it settled (core/settled.ts), not by polling. A client
// that goes away cancels its run.
import type { Context } from '../../context.ts';
import { checkLanguage, transcriptionEngine, transcriptionEngineNames, type TranscriptionEngineName } from '../../engines/transcription/registry.ts';
import { AppError, invalid } from '../../errors.ts';
import type { ReceivedAudio } from '../../core/recordings/audio-intake.ts';
import { checkRetention, createFromUploadWith, sanitizeFilename } from '../../core/recordings/recordings.ts';
import { cancelRun } from '../../core/runs/runs.ts';
import { transcriptionKind } from './transcription-kind.ts';
import { createTranscriptionRun, type ScenarioSnapshot, type TranscriptionRun } from './transcription-runs.ts';
import { pipelineScenario } from '../../core/scenarios/scenario-store.ts';
import { getTranscriptionScenario, transcriptionScenarios } from './transcription-scenarios.ts';
import { waitForSettled } from '../../core/settled.ts';
import { checkVocabularyWords, MAX_VOCABULARY, vocabularyTerms } from './vocabulary.ts';
import { MAX_PROMPT_CHARS } from './transcription-card.ts';
import { TRANSCRIPT_COLUMNS, type TranscriptRow } from '../../core/transcripts/transcript.ts';
import { baseUrlOf } from '../../engines/openai-endpoint.ts';
import { EngineError } from '../../platform/engine-error.ts';

export interface SyncRequest {
  audio: ReceivedAudio;
  filename: string | undefined;
  contentType: string | null;
  /** A scenario id (sct-…), an "engine/model" pair, or any other name (the workspace's scenario). */
  model: string;
  language?: string | undefined;
  prompt?: string | undefined;
  /** Terms added to the scenario's vocabulary for this request. */
  vocabulary?: string[];
  /** Smart formatting for this request, where the scenario's `format` is not to be followed. */
  format?: boolean | undefined;
}

/**
 * A language as clients write it, in the form the engine lists: "EN", "en-US" and "en_GB" are "en"
 * where the engine takes "en" and not the tag itself. Undefined where none was given.
 */
function languageFor(engine: string, asked: string | undefined): string | undefined {
  const written = asked?.trim();
  if (!written) return undefined;
  const { languages } = transcriptionEngine(engine);
  const tag = written.toLowerCase().replace('_', '-');
  if (!languages || languages.includes(written)) return written;
  if (languages.includes(tag)) return tag;
  const base = tag.split('-')[0]!;
  return languages.includes(base) ? base : written;
}

async function snapshotFor(ctx: Context, workspaceId: string, request: SyncRequest): Promise<ScenarioSnapshot> {
  let scenario: ScenarioSnapshot | null;
  if (request.model.startsWith('sct-')) {
    scenario = await getTranscriptionScenario(ctx.db, workspaceId, request.model);
  } else {
    scenario = await ctx.db.transaction().execute((trx) => pipelineScenario(trx, transcriptionScenarios, workspaceId, true));
    if (!scenario) throw invalid('model', 'the workspace has no transcription scenario');
    const [engine, ...rest] = request.model.split('/');
    if (rest.length > 0 && engine) {
      if (!(transcriptionEngineNames as readonly string[]).includes(engine)) throw invalid('model', `unknown engine "${engine}"; one of ${transcriptionEngineNames.join(', ')}`);
      scenario = { ...scenario, engine: engine as TranscriptionEngineName, model: rest.join('/'), language: transcriptionEngine(engine).defaultLanguage };
    }
  }
  await transcriptionEngine(scenario.engine).checkModel(ctx.config, scenario.model);
  if (request.prompt && request.prompt.length > MAX_PROMPT_CHARS) throw invalid('prompt', `is longer than ${MAX_PROMPT_CHARS} characters`);
  const language = languageFor(scenario.engine, request.language) ?? scenario.language;
  checkLanguage(scenario.engine, language);
  // An engine that cannot be reached from here is refused before anything is stored or queued.
  if (scenario.engine === 'openai') {
    try {
      baseUrlOf(ctx.config, (scenario.options as { base_url?: string | null }).base_url ?? null);
    } catch (error) {
      if (error instanceof EngineError) throw invalid('model', `${error.message}: name a scenario (sct-…) whose options give a base_url`);
      throw error;
    }
  }
  const vocabulary = [...(scenario.options.vocabulary ?? []), ...(request.vocabulary ?? []).filter((term) => !vocabularyTerms(scenario.options.vocabulary).some((known) => known.phrase === term))];
  if (vocabulary.length > MAX_VOCABULARY) throw invalid('vocabulary[]', `at most ${MAX_VOCABULARY} terms with the scenario's own`);
  const long = (request.vocabulary ?? []).findIndex((term) => term.length > 60);
  if (long >= 0) throw invalid(`vocabulary[${long}]`, 'is longer than 60 characters');
  // The request's own terms, named as their form fields; the scenario's were checked when saved.
  checkVocabularyWords(request.vocabulary, (i) => `vocabulary[${i}]`);
  await transcriptionEngine(scenario.engine).checkVocabulary(vocabularyTerms(vocabulary));
  return { ...scenario, language, options: { ...scenario.options, word_timestamps: true, ...(request.prompt ? { prompt: request.prompt } : {}), ...(request.format !== undefined ? { format: request.format } : {}), ...(vocabulary.length > 0 ? { vocabulary } : {}) } };
}

/** A waiter looks again after this long even without a notice (one lost with a connection). */
const SETTLED_CHECK_MS = 2000;

export async function transcribeNow(ctx: Context, workspaceId: string, request: SyncRequest, signal: AbortSignal): Promise<{ run: TranscriptionRun; transcript: TranscriptRow }> {
  const scenario = await snapshotFor(ctx, workspaceId, request);
  // The run is created with the recording, so the prepared audio finds it and starts no automatic run beside it.
  const { recording, made: started } = await createFromUploadWith(
    ctx,
    workspaceId,
    {
      audio: request.audio,
      filename: sanitizeFilename(request.filename, 'audio'),
      contentType: request.contentType,
      metadata: { value: { source: 'openai-compatible' }, json: '{"source":"openai-compatible"}' },
      retentionDays: checkRetention(ctx, undefined),
    },
    (trx, created) => createTranscriptionRun(ctx, trx, { workspaceId, recordingId: created.id, scenario }),
  );
  for (;;) {
    if (signal.aborted) {
      await cancelRun(ctx, transcriptionKind, workspaceId, started.id).catch(() => {});
      throw new AppError('client_closed_request', 'the client went away before the transcript was ready; its run was cancelled');
    }
    const run = await ctx.db.selectFrom('transcription_runs').selectAll().where('id', '=', started.id).executeTakeFirstOrThrow();
    const recordingNow = await ctx.db.selectFrom('recordings').select(['status', 'error_code', 'error_message']).where('id', '=', recording.id).executeTakeFirstOrThrow();
    if (recordingNow.status === 'failed') throw invalid('file', recordingNow.error_message ?? 'the audio could not be decoded');
    if (run.status === 'completed' && run.transcript_id) {
      const transcript = await ctx.db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', run.transcript_id).executeTakeFirstOrThrow();
      return { run, transcript };
    }
    if (run.status === 'failed' || run.status === 'cancelled') {
      throw new AppError('engine_failed', `transcription ${run.status}: ${run.error_code ?? 'engine_error'}: ${run.error_message ?? 'unknown error'}`);
    }
    await waitForSettled([started.id, recording.id], SETTLED_CHECK_MS, signal);
  }
}
