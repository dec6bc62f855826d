// The analysis kind of run: reads the transcript the run is bound to, answers phrase rules itself
// and runs the scenario's analysis engine (cancellable) on each question's part of the transcript,
// and stores the result with the completion.
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { AnalysisOptions, presentAnalysisRun } from './analysis-card.ts';
import { RetrySettings } from '../../core/scenarios/scenario-card.ts';
import type { AnalysisRunsTable } from '../../platform/db/tables.ts';
import { EngineError } from '../../platform/engine-error.ts';
import { loadAnalysisEngine } from '../../engines/analysis/registry.ts';
import type { AnalysisEngine, AnalysisOutput } from '../../engines/analysis/types.ts';
import { analyzeTranscript } from './targeted-questions.ts';
import type { RunKind } from '../../core/runs/run-kind.ts';
import { TRANSCRIPT_COLUMNS, transcriptParts, transcriptSpotted, type TranscriptRow } from '../../core/transcripts/transcript.ts';
import { QuestionSchema } from '../../core/analyses/questions.ts';
import { lockCallResults, reportFacts, withEarlierReviews } from './reviewed-answers.ts';

export type AnalysisRun = Selectable<AnalysisRunsTable>;

export const AnalysisSnapshot = Type.Object({
  id: Type.String(),
  engine: Type.String(),
  model: Type.String(),
  instructions: Type.String(),
  questions: Type.Array(QuestionSchema),
  summary: Type.Boolean(),
  retry: RetrySettings,
  options: Type.Optional(AnalysisOptions),
});
export type AnalysisSnapshot = Static<typeof AnalysisSnapshot>;

export const analysisKind: RunKind<AnalysisRun, AnalysisSnapshot, TranscriptRow, AnalysisOutput> = {
  name: 'analysis',
  table: 'analysis_runs',
  job: 'analyze',
  idKind: 'analysisRun',
  event: 'analysis_run',
  snapshotSchema: AnalysisSnapshot,

  async gate(ctx, run) {
    const transcript = run.transcript_id ? await ctx.db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', run.transcript_id).executeTakeFirst() : undefined;
    if (!transcript) return { fail: new EngineError('transcript_not_available', 'the transcript was deleted', false) };
    return { input: transcript };
  },

  async execute(ctx, _run, snapshot, transcript, control) {
    let engine: Promise<AnalysisEngine> | undefined;
    const load = () =>
      (engine ??= loadAnalysisEngine(snapshot.engine, { config: ctx.config, model: snapshot.model, baseUrl: snapshot.options?.base_url ?? null }).catch((error: unknown) => {
        throw error instanceof EngineError ? error : new EngineError('engine_unavailable', (error as Error).message, false);
      }));
    const parts = transcriptParts(transcript);
    return analyzeTranscript({
      // What spotting heard counts until a person corrects the transcript: their words then win.
      parts: { text: transcript.text, ...parts, spotted: transcript.version === 1 ? transcriptSpotted(transcript) : [] },
      instructions: snapshot.instructions,
      questions: snapshot.questions,
      summary: snapshot.summary,
      engine: load,
      engineName: snapshot.engine,
      model: snapshot.model,
      signal: control.signal,
    });
  },

  async persist(_ctx, trx, run, _snapshot, transcript, output) {
    // This result replaces the recording's earlier one for the scenario in reports, keeping its
    // reviews. Results of one recording and scenario completing at once take turns, so exactly
    // one stays the latest.
    await lockCallResults(trx, run.recording_id, run.analysis_scenario_id);
    const answers = await withEarlierReviews(trx, run.recording_id, run.analysis_scenario_id, output.answers);
    await trx
      .insertInto('analysis_results')
      .values({
        analysis_run_id: run.id,
        workspace_id: run.workspace_id,
        recording_id: run.recording_id,
        transcript_id: transcript.id,
        transcription_run_id: transcript.transcription_run_id,
        analysis_scenario_id: run.analysis_scenario_id,
        engine: output.engine,
        model: output.model,
        summary: output.summary,
        answers: JSON.stringify(answers),
        tokens_used: output.tokens_used,
      })
      .execute();
    const facts = reportFacts(answers);
    await trx.updateTable('analysis_facts').set({ latest: false }).where('recording_id', '=', run.recording_id).where('analysis_scenario_id', '=', run.analysis_scenario_id).where('latest', '=', true).execute();
    await trx
      .insertInto('analysis_facts')
      .columns(['analysis_run_id', 'workspace_id', 'analysis_scenario_id', 'recording_id', 'created_at', 'recorded_at', 'metadata', 'booleans', 'uncertain', 'reviews', 'latest'])
      .expression((eb) =>
        eb
          .selectFrom('recordings')
          .select([
            eb.val(run.id).as('analysis_run_id'),
            eb.val(run.workspace_id).as('workspace_id'),
            eb.val(run.analysis_scenario_id).as('analysis_scenario_id'),
            'id',
            'created_at',
            'recorded_at',
            'metadata',
            eb.val(JSON.stringify(facts.booleans)).as('booleans'),
            eb.val(JSON.stringify(facts.uncertain)).as('uncertain'),
            eb.val(JSON.stringify(facts.reviews)).as('reviews'),
            eb.val(true).as('latest'),
          ])
          .where('id', '=', run.recording_id),
      )
      .execute();
    return {};
  },

  present: presentAnalysisRun,
};
