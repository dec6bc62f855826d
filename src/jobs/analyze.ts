// analyze: runs an analysis run's engine on its bound transcript; stores the result with the
// run's completion in one transaction; retries retryable failures by the scenario's settings.
import type { Context } from '../context.ts';
import { loadAnalysisEngine } from '../engines/analysis/registry.ts';
import { EngineError } from '../engines/transcription/types.ts';
import type { AnalysisSnapshot } from '../services/analysis-runs.ts';
import { analysisRunEvent } from '../services/events.ts';
import type { Segment } from '../engines/transcription/types.ts';
import type { JobHandler } from './queue.ts';
import { startHeartbeat } from './recover-runs.ts';
import { engineFailure, retryLater } from './run-retry.ts';

export interface AnalyzeJob {
  runId: string;
}

export function analyzeJob(ctx: Context): JobHandler<AnalyzeJob> {
  const fail = (runId: string, error: EngineError) =>
    ctx.db.transaction().execute(async (trx) => {
      const failed = await trx
        .updateTable('analysis_runs')
        .set({ status: 'failed', error_code: error.code, error_message: error.message, retryable: error.retryable, completed_at: new Date(), updated_at: new Date() })
        .where('id', '=', runId)
        .where('status', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirst();
      if (failed) await analysisRunEvent(ctx, trx, failed);
    });

  return {
    name: 'analyze',
    settings: { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: ctx.config.jobTimeoutSeconds },
    concurrency: ctx.config.workerConcurrency,
    async handle({ runId }) {
      const started = await ctx.db
        .updateTable('analysis_runs')
        .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), started_at: new Date(), updated_at: new Date() }))
        .where('id', '=', runId)
        .where('status', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirst();
      if (!started) return;
      const transcript = started.transcript_id ? await ctx.db.selectFrom('transcripts').selectAll().where('id', '=', started.transcript_id).executeTakeFirst() : undefined;
      if (!transcript) {
        await fail(runId, new EngineError('transcript_not_available', 'the transcript was deleted', false));
        return;
      }
      const snapshot = started.scenario as AnalysisSnapshot;
      const stopHeartbeat = startHeartbeat(ctx, 'analysis_runs', runId);
      try {
        const engine = await loadAnalysisEngine(snapshot.engine, { config: ctx.config, model: snapshot.model, baseUrl: snapshot.options?.base_url ?? null }).catch((error: unknown) => {
          throw error instanceof EngineError ? error : new EngineError('engine_unavailable', (error as Error).message, false);
        });
        const output = await engine.analyze({
          transcript: { text: transcript.text, segments: transcript.segments as Segment[] },
          instructions: snapshot.instructions,
          questions: snapshot.questions,
          summary: snapshot.summary,
        });
        await ctx.db.transaction().execute(async (trx) => {
          const done = await trx
            .updateTable('analysis_runs')
            .set({ status: 'completed', error_code: null, error_message: null, retryable: null, completed_at: new Date(), updated_at: new Date() })
            .where('id', '=', runId)
            .where('status', '=', 'running')
            .returningAll()
            .executeTakeFirst();
          if (!done) return;
          await trx
            .insertInto('analysis_results')
            .values({
              analysis_run_id: runId,
              workspace_id: started.workspace_id,
              recording_id: started.recording_id,
              transcript_id: transcript.id,
              transcription_run_id: transcript.transcription_run_id,
              analysis_scenario_id: started.analysis_scenario_id,
              engine: output.engine,
              model: output.model,
              summary: output.summary,
              answers: JSON.stringify(output.answers),
              tokens_used: output.tokens_used,
            })
            .execute();
          await analysisRunEvent(ctx, trx, done);
        });
      } catch (error) {
        const failure = engineFailure(ctx, error, runId);
        if (await retryLater(ctx, { table: 'analysis_runs', job: 'analyze' }, runId, failure, started.attempts, snapshot.retry)) return;
        await fail(runId, failure);
      } finally {
        stopHeartbeat();
      }
    },
  };
}
