// JSON cards of analysis scenarios, runs and results, with their schemas.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { readStored } from '../../platform/db/stored-json.ts';
import type { AnalysisResultsTable, AnalysisRunsTable } from '../../platform/db/tables.ts';
import { analysisEngineNames } from '../../engines/analysis/registry.ts';
import type { AnalysisAnswer } from '../../engines/analysis/types.ts';
import { presentRunFields, runCardFields } from '../../core/runs/run-card.ts';
import { RetrySettings, SelectionSchema } from '../../core/scenarios/scenario-card.ts';
import { StringEnum, DateTime, Nullable } from '../../http/schemas/schema-types.ts';

type AnalysisRun = Selectable<AnalysisRunsTable>;
type AnalysisResultRow = Selectable<AnalysisResultsTable>;

export const QuestionSchema = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
  text: Type.String({ minLength: 1, maxLength: 500 }),
  type: Type.Union([Type.Literal('boolean'), Type.Literal('text')]),
  speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only what this speaker said counts (a speaker label of the transcript, e.g. "agent")' })),
  within_seconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 86_400, description: 'Only the first N seconds of the recording count (e.g. the greeting)' })),
  phrases: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      minItems: 1,
      maxItems: 50,
      description:
        'Boolean questions only: answered without a model, true when any phrase is said (words compared without case or punctuation, one word in four may differ), with the matched words and their times as evidence',
    }),
  ),
  examples: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
      minItems: 1,
      maxItems: 10,
      description:
        'Boolean questions only: sentences that mean "yes" in your calls ("I have refunded the full amount"), read beside the question: the basic engine answers yes when the call says one of them in other words, a language model is shown them',
    }),
  ),
});

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

const Passage = Type.Object({
  text: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  source: Type.Optional(Type.Union([Type.Literal('transcript'), Type.Literal('audio')], { description: 'Phrase rules: found in the transcript\'s words, or by keyword spotting in the audio (the transcription scenario\'s spot)' })),
});
const StoredAnswer = Type.Object({
  question_id: Type.String(),
  question: Type.String(),
  type: Type.Union([Type.Literal('boolean'), Type.Literal('text')]),
  answer: Type.Union([Type.Boolean(), Type.String()], { description: 'A JSON boolean for boolean questions, a string for text ones' }),
  confidence: Type.Number(),
  evidence: Type.Array(Passage, { description: 'Transcript passages the answer rests on (they say what it says), with their times' }),
  related: Type.Optional(Type.Array(Passage, { description: 'Passages that resemble the question but did not settle it: worth a listen, never evidence' })),
  speaker: Type.Optional(Type.String({ description: "The question's speaker: only what they said was read" })),
  within_seconds: Type.Optional(Type.Number({ description: "The question's window: only the recording's first N seconds were read" })),
  method: Type.Optional(Type.Union([Type.Literal('phrases'), Type.Literal('engine')], { description: '"phrases": answered by the question\'s phrase rule, without a model; "engine": by the scenario\'s engine' })),
});

/** Below this confidence an answer is marked uncertain: a person should check it. */
export const UNCERTAIN_BELOW = 0.6;

const Answer = Type.Composite([
  StoredAnswer,
  Type.Object({ uncertain: Type.Boolean({ description: `true when the confidence is below ${UNCERTAIN_BELOW}: the answer rests on too little to trust without a listen` }) }),
]);

export const StoredAnswersSchema = Type.Array(StoredAnswer);
const StoredAnswers = StoredAnswersSchema;

export const AnalysisResultCard = Type.Object(
  {
    analysis_run_id: Type.String(),
    recording_id: Type.String(),
    transcript_id: Type.String(),
    transcription_run_id: Type.String(),
    analysis_scenario_id: Type.String(),
    engine: Type.String({ description: '"basic" means no language model was used' }),
    model: Type.String(),
    summary: Nullable(Type.String()),
    answers: Type.Array(Answer),
    tokens_used: Type.Integer(),
    created_at: DateTime,
  },
  { $id: 'AnalysisResult' },
);

export function presentAnalysisResult(result: AnalysisResultRow) {
  return {
    analysis_run_id: result.analysis_run_id,
    recording_id: result.recording_id,
    transcript_id: result.transcript_id,
    transcription_run_id: result.transcription_run_id,
    analysis_scenario_id: result.analysis_scenario_id,
    engine: result.engine,
    model: result.model,
    summary: result.summary,
    answers: (readStored(StoredAnswers, result.answers, `analysis result ${result.analysis_run_id} answers`) as AnalysisAnswer[]).map((answer) => ({ ...answer, uncertain: answer.confidence < UNCERTAIN_BELOW })),
    tokens_used: result.tokens_used,
    created_at: result.created_at,
  };
}
