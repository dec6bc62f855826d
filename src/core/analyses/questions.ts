// The questions of an analysis scenario, as the analysis feature writes them and reports read them.
import { Type, type Static } from '@sinclair/typebox';
import { readStored } from '../../platform/db/stored-json.ts';
import type { ScenarioKind } from '../scenarios/scenario-store.ts';

/** A new question's id: not dots alone, which "." and ".." in …/answers/{question_id}/review would be read as path segments (those stored before stay readable). */
export const QuestionId = Type.String({ pattern: '^(?!\\.+$)[A-Za-z0-9_.-]{1,64}$' });

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
        'Boolean questions only: sentences that mean "yes" in your calls ("I have refunded the full amount"), read beside the question: the basic engine answers yes when the call says one of them in other words in a sentence that means much the same (uncertain unless very alike), a language model is shown them',
    }),
  ),
});

export type Question = Static<typeof QuestionSchema>;

export const StoredQuestions = Type.Array(QuestionSchema);

/** An analysis scenario seen only through its questions (reports read no more of it). */
export const scenarioQuestions: ScenarioKind<{ id: string; questions: Question[] }> = {
  table: 'analysis_scenarios',
  idKind: 'analysisScenario',
  noun: 'analysis scenario',
  fromRow: (row: { id: string; questions: unknown }) => ({ id: row.id, questions: readStored(StoredQuestions, row.questions, `analysis scenario ${row.id} questions`) }),
};
