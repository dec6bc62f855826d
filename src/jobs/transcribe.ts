// transcribe: runs a transcription run's engine on the prepared audio, keeps progress current,
// honours cancellation, retries retryable failures by the scenario's settings, and stores the
// transcript with the run's completion in one transaction.
import type { Context } from '../context.ts';
import { loadTranscriptionEngine } from '../engines/transcription/registry.ts';
import { EngineError, type TranscriptionEngine } from '../engines/transcription/types.ts';
import { onTranscriptCompleted } from '../services/automation.ts';
import { transcriptionRunEvent } from '../services/events.ts';
import { summarizeTranscript } from '../services/transcript-summary.ts';
import { newUuid } from '../ids.ts';
import type { ScenarioSnapshot } from '../services/transcription-runs.ts';
import { recordingKeys } from '../storage/blobs.ts';
import type { JobHandler } from './queue.ts';
import { startHeartbeat } from './recover-runs.ts';
import { engineFailure, retryLater } from './run-retry.ts';

export interface TranscribeJob {
  runId: string;
}

const PROGRESS_INTERVAL_MS = 1000;
/** A safety net: preparation's completion sends the job of every waiting run itself, except a run
 * committed between that check and the preparation's own commit. */
const PREPARATION_POLL_SECONDS = 3;

export function transcribeJob(ctx: Context): JobHandler<TranscribeJob> {
  const engines = new Map<string, Promise<TranscriptionEngine>>();
  const engineFor = (snapshot: ScenarioSnapshot) => {
    const baseUrl = snapshot.options.base_url ?? null;
    const key = `${snapshot.engine}|${baseUrl ?? ''}`;
    let engine = engines.get(key);
    if (!engine) {
      engine = loadTranscriptionEngine(snapshot.engine, { config: ctx.config, baseUrl });
      engines.set(key, engine);
      engine.catch(() => engines.delete(key));
    }
    return engine;
  };

  const fail = async (runId: string, error: EngineError) => {
    await ctx.db.transaction().execute(async (trx) => {
      const failed = await trx
        .updateTable('transcription_runs')
        .set({ status: 'failed', error_code: error.code, error_message: error.message, retryable: error.retryable, completed_at: new Date(), updated_at: new Date() })
        .where('id', '=', runId)
        .where('status', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirst();
      if (failed) await transcriptionRunEvent(ctx, trx, failed);
    });
  };

  return {
    name: 'transcribe',
    settings: { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: ctx.config.jobTimeoutSeconds },
    concurrency: ctx.config.workerConcurrency,
    async handle({ runId }) {
      const run = await ctx.db.selectFrom('transcription_runs').selectAll().where('id', '=', runId).executeTakeFirst();
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
      const recording = await ctx.db.selectFrom('recordings').selectAll().where('id', '=', run.recording_id).executeTakeFirst();
      if (!recording) return;
      if (recording.status === 'queued' || recording.status === 'processing') {
        await ctx.queue.send('transcribe', { runId }, { startAfterSeconds: PREPARATION_POLL_SECONDS });
        return;
      }
      if (recording.status !== 'completed' || recording.audio_deleted_at) {
        const code = recording.audio_deleted_at ? 'audio_expired' : 'recording_failed';
        await fail(runId, new EngineError(code, `the recording is ${recording.audio_deleted_at ? 'expired' : recording.status}`, false));
        return;
      }

      const snapshot = run.scenario as ScenarioSnapshot;
      const started = await ctx.db
        .updateTable('transcription_runs')
        .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), progress: 0, started_at: run.started_at ?? new Date(), updated_at: new Date() }))
        .where('id', '=', runId)
        .where('status', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirst();
      if (!started) return;

      const abort = new AbortController();
      let lastReport = 0;
      const onProgress = (fraction: number) => {
        const now = Date.now();
        if (now - lastReport < PROGRESS_INTERVAL_MS) return;
        lastReport = now;
        void ctx.db
          .updateTable('transcription_runs')
          .set({ progress: Math.min(0.99, Math.max(0, fraction)), updated_at: new Date() })
          .where('id', '=', runId)
          .where('status', '=', 'running')
          .executeTakeFirst()
          .then((result) => {
            if (result.numUpdatedRows === 0n) abort.abort();
          })
          .catch(() => {});
      };

      const stopHeartbeat = startHeartbeat(ctx, 'transcription_runs', runId);
      try {
        const engine = await engineFor(snapshot);
        const result = await engine.transcribe(
          {
            audioPath: ctx.blobs.pathOf(recordingKeys(recording.workspace_id, recording.id).prepared),
            durationSeconds: recording.duration_seconds ?? 0,
            language: snapshot.language,
            model: snapshot.model,
            wordTimestamps: snapshot.options.word_timestamps,
            ...(snapshot.options.prompt ? { prompt: snapshot.options.prompt } : {}),
          },
          { signal: abort.signal, onProgress },
        );
        const summary = snapshot.options.summary ? await summarizeTranscript(result) : null;
        await ctx.db.transaction().execute(async (trx) => {
          const transcriptId = newUuid();
          const done = await trx
            .updateTable('transcription_runs')
            .set({ status: 'completed', transcript_id: transcriptId, progress: 1, error_code: null, error_message: null, retryable: null, completed_at: new Date(), updated_at: new Date() })
            .where('id', '=', runId)
            .where('status', '=', 'running')
            .returningAll()
            .executeTakeFirst();
          if (!done) return; // cancelled meanwhile
          const transcript = await trx
            .insertInto('transcripts')
            .values({
              id: transcriptId,
              workspace_id: run.workspace_id,
              transcription_run_id: runId,
              recording_id: run.recording_id,
              language: result.language,
              duration_seconds: recording.duration_seconds,
              text: result.text,
              segments: JSON.stringify(result.segments),
              words: JSON.stringify(snapshot.options.word_timestamps ? result.words : []),
              summary,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await onTranscriptCompleted(ctx, trx, done, transcript);
          await transcriptionRunEvent(ctx, trx, done);
        });
      } catch (error) {
        if (abort.signal.aborted) return; // cancelled: the card already says so
        const failure = engineFailure(ctx, error, runId);
        if (await retryLater(ctx, { table: 'transcription_runs', job: 'transcribe' }, runId, failure, started.attempts, snapshot.retry)) return;
        await fail(runId, failure);
      } finally {
        stopHeartbeat();
      }
    },
  };
}
