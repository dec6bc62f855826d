// An analysis result as every feature reads it: its answers (typed, with evidence, marked
// uncertain below a confidence) and its card.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { readStored } from '../../platform/db/stored-json.ts';
import type { AnalysisResultsTable } from '../../platform/db/tables.ts';
import type { AnalysisAnswer } from '../../engines/analysis/types.ts';
import { DateTime, Nullable } from '../../http/schemas/schema-types.ts';

type AnalysisResultRow = Selectable<AnalysisResultsTable>;

const Passage = Type.Object({
  text: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  source: Type.Optional(Type.Union([Type.Literal('transcript'), Type.Literal('audio')], { description: 'Phrase rules: found in the transcript\'s words, or by keyword spotting in the audio (the transcription scenario\'s spot)' })),
});
/** A person's verdict on an answer: what reports and the answer table count instead of the engine's `answer`. */
export const ReviewSchema = Type.Object(
  {
    answer: Type.Union([Type.Boolean(), Type.String()], { description: 'The answer the reviewer gives: a JSON boolean for a boolean question (the same as the engine\'s when they agree), a string for a text one' }),
    agrees: Type.Boolean({ description: 'true when the reviewer\'s answer is the engine\'s' }),
    note: Nullable(Type.String()),
    reviewed_at: Type.String({ description: 'When, in RFC 3339 (UTC)' }),
    carried_from: Type.Optional(
      Nullable(Type.String({ description: 'The analysis run the review was given on, where that is an earlier analysis of the call whose review this answer took over (the question asked in the same words); null where it was given on this answer' })),
    ),
    reviewed_by: Type.Object({
      account_id: Nullable(Type.String({ description: 'The signed-in person, or the person the API key answers to' })),
      api_key_id: Nullable(Type.String({ description: 'The API key the review was sent with (null from a browser session)' })),
    }),
  },
  { description: 'Present once a person reviewed the answer (PUT …/answers/{question_id}/review): reports, the answer table and its filters count review.answer in place of answer, never as uncertain (answer, confidence and uncertain stay the engine\'s)' },
);

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
  speaker_not_found: Type.Optional(Type.String({ description: "The question's speaker, whom this transcript does not name (one unnamed channel, or channels named otherwise: transcribe again with the scenario's speaker_labels): everyone's words were read, and the answer is uncertain" })),
  method: Type.Optional(Type.Union([Type.Literal('phrases'), Type.Literal('engine')], { description: '"phrases": answered by the question\'s phrase rule, without a model; "engine": by the scenario\'s engine' })),
  phrases: Type.Optional(Type.Array(Type.String(), { description: 'With method "phrases": the phrases the rule looked for, as the question had them when it ran (absent on answers stored before 2026-11-29); the evidence says where one was said, and none is evidence of none' })),
  review: Type.Optional(ReviewSchema),
});

/** Below this confidence an answer is marked uncertain: a person should check it. */
export const UNCERTAIN_BELOW = 0.6;

export const AnswerSchema = Type.Composite([
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
    answers: Type.Array(AnswerSchema),
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
