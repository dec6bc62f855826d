// The transcription kind of run: waits for the recording's preparation, runs the scenario's
// transcription engine on the prepared audio, and stores the transcript with the completion.
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { RetrySettings } from '../cards/scenario.ts';
import { presentTranscriptionRun, TranscriptionOptions } from '../cards/transcription.ts';
import type { Context } from '../context.ts';
import type { TranscriptionRunsTable } from '../db/tables.ts';
import type { Recording } from '../services/recordings.ts';
import { EngineError } from '../engines/engine-error.ts';
import { loadTranscriptionEngine } from '../engines/transcription/registry.ts';
import type { TranscriptionEngine, TranscriptionResult } from '../engines/transcription/types.ts';
import { newUuid } from '../ids.ts';
import type { RunKind } from '../runs/run-kind.ts';
import { summarizeTranscript } from '../services/transcript-summary.ts';
import { recordingKeys } from '../storage/blobs.ts';

export type TranscriptionRun = Selectable<TranscriptionRunsTable>;

export const TranscriptionSnapshot = Type.Object({
  id: Type.String(),
  engine: Type.String(),
  model: Type.String(),
  language: Type.String(),
  options: TranscriptionOptions,
  retry: RetrySettings,
});
export type TranscriptionSnapshot = Static<typeof TranscriptionSnapshot>;

/** A safety net: preparation's completion sends the job of every waiting run itself, except a run
 * committed between that check and the preparation's own commit. */
const PREPARATION_POLL_SECONDS = 3;

/** Engines are loaded once per process and engine/server. */
const engines = new WeakMap<Context, Map<string, Promise<TranscriptionEngine>>>();
function engineFor(ctx: Context, snapshot: TranscriptionSnapshot): Promise<TranscriptionEngine> {
  const cache = engines.get(ctx) ?? new Map<string, Promise<TranscriptionEngine>>();
  engines.set(ctx, cache);
  const baseUrl = snapshot.options.base_url ?? null;
  const key = `${snapshot.engine}|${baseUrl ?? ''}`;
  let engine = cache.get(key);
  if (!engine) {
    engine = loadTranscriptionEngine(snapshot.engine, { config: ctx.config, baseUrl });
    cache.set(key, engine);
    engine.catch(() => cache.delete(key));
  }
  return engine;
}

export const transcriptionKind: RunKind<TranscriptionRun, TranscriptionSnapshot, Recording, TranscriptionResult> = {
  name: 'transcription',
  table: 'transcription_runs',
  job: 'transcribe',
  idKind: 'transcriptionRun',
  event: 'transcription_run',
  snapshotSchema: TranscriptionSnapshot,

  async gate(ctx, run) {
    const recording = await ctx.db.selectFrom('recordings').selectAll().where('id', '=', run.recording_id).executeTakeFirst();
    if (!recording) return { fail: new EngineError('recording_failed', 'the recording was deleted', false) };
    if (recording.status === 'queued' || recording.status === 'processing') return { wait: PREPARATION_POLL_SECONDS };
    if (recording.audio_deleted_at) return { fail: new EngineError('audio_expired', 'the recording is expired', false) };
    if (recording.status !== 'completed') return { fail: new EngineError('recording_failed', `the recording is ${recording.status}`, false) };
    return { input: recording };
  },

  async execute(ctx, _run, snapshot, recording, control) {
    const engine = await engineFor(ctx, snapshot);
    return ctx.blobs.withLocalFile(recordingKeys(recording.workspace_id, recording.id).prepared, (audioPath) =>
      engine.transcribe(
        {
          audioPath,
          durationSeconds: recording.duration_seconds ?? 0,
          language: snapshot.language,
          model: snapshot.model,
          wordTimestamps: snapshot.options.word_timestamps,
          ...(snapshot.options.prompt ? { prompt: snapshot.options.prompt } : {}),
        },
        control,
      ),
    );
  },

  async persist(_ctx, trx, run, snapshot, recording, result) {
    const summary = snapshot.options.summary ? await summarizeTranscript(result) : null;
    const transcriptId = newUuid();
    await trx
      .insertInto('transcripts')
      .values({
        id: transcriptId,
        workspace_id: run.workspace_id,
        transcription_run_id: run.id,
        recording_id: run.recording_id,
        language: result.language,
        duration_seconds: recording.duration_seconds,
        text: result.text,
        segments: JSON.stringify(result.segments),
        words: JSON.stringify(snapshot.options.word_timestamps ? result.words : []),
        summary,
      })
      .execute();
    return { transcript_id: transcriptId };
  },

  present: presentTranscriptionRun,
};
