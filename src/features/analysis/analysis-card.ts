// JSON cards of analysis scenarios and runs, with their schemas (questions and results, which
// reports and files read too, are in core/analyses/).
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { AnalysisRunsTable } from '../../platform/db/tables.ts';
import { analysisEngineNames } from '../../engines/analysis/registry.ts';
import { presentRunFields, runCardFields } from '../../core/runs/run-card.ts';
import { RetrySettings, ScenarioVersion, SelectionSchema } from '../../core/scenarios/scenario-card.ts';
import { StringEnum, DateTime, Nullable } from '../../http/schemas/schema-types.ts';
import { QuestionSchema } from '../../core/analyses/questions.ts';

type AnalysisRun = Selectable<AnalysisRunsTable>;

export const AnalysisOptions = Type.Object({
  base_url: Type.Optional(Nullable(Type.String({ description: 'openai engine: the server base URL (default HARK_OPENAI_BASE_URL)' }))),
});

export const AnalysisScenarioCard = Type.Object(
  {
    id: Type.String({ description: 'sca-<uuid>' }),
    name: Type.String(),
    engine: StringEnum(analysisEngineNames, { description: '"basic" is the embedded engine without a language model' }),
    model: Type.String(),
    instructions: Type.String(),
    questions: Type.Array(QuestionSchema),
    summary: Type.Boolean(),
    auto: Type.Boolean({ description: 'Runs by itself when a transcript completes; at most one per workspace' }),
    retry: RetrySettings,
    selection: SelectionSchema,
    options: AnalysisOptions,
    version: ScenarioVersion,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'AnalysisScenario' },
);

export const AnalysisRunCard = Type.Object(
  {
    id: Type.String({ description: 'anl-<uuid>' }),
    analysis_scenario_id: Type.String(),
    transcript_id: Nullable(Type.String({ description: 'The transcript version the run analyses' })),
    transcription_run_id: Nullable(Type.String()),
    ...runCardFields,
  },
  { $id: 'AnalysisRun' },
);

export function presentAnalysisRun(run: AnalysisRun) {
  return { id: run.id, analysis_scenario_id: run.analysis_scenario_id, transcript_id: run.transcript_id, transcription_run_id: run.transcription_run_id, ...presentRunFields(run) };
}
