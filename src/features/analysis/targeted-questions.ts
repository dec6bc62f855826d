// Questions that target a speaker, a time window or exact phrases. Each question sees only its
// part of the transcript (one speaker's words, the first N seconds); phrase questions are answered
// by the phrase rule without a model; the others go to the engine once per distinct part, the
// scenario's summary with the whole transcript. Answers come back in the scenario's order. On a
// call whose speakers cannot be told apart (one channel, unnamed), or that does not name the
// question's speaker, a question about one speaker reads everyone's words, and its answer says so:
// no `speaker`, `speaker_not_found`, and uncertain.
import type { AnalysisAnswer, AnalysisEngine, AnalysisOutput } from '../../engines/analysis/types.ts';
import { answerByPhrases, scopedTranscript, speakerIn, type Scope, type TranscriptParts } from '../../core/transcripts/phrase-rules.ts';
import { type Question } from '../../core/analyses/questions.ts';
import { timedByWords } from './evidence-times.ts';


const scopeKey = (q: Scope) => `${q.speaker ?? ''}\u0000${q.within_seconds ?? ''}`;

const hasPhrases = (q: Question): q is Question & { phrases: string[] } => q.type === 'boolean' && Array.isArray(q.phrases) && q.phrases.length > 0;

export interface AnalysisRequest {
  parts: TranscriptParts;
  instructions: string;
  questions: Question[];
  summary: boolean;
  engine: () => Promise<AnalysisEngine>;
  /** Names reported when no engine was needed (every question a phrase rule, no summary). */
  engineName: string;
  model: string;
  signal: AbortSignal;
}

/** The confidence an answer about one speaker keeps when it had to read everyone's words. */
export const SPEAKER_UNKNOWN_CONFIDENCE = 0.5;

export async function analyzeTranscript(request: AnalysisRequest): Promise<AnalysisOutput> {
  const answers = new Map<string, AnalysisAnswer>();
  const groups = new Map<string, Question[]>();
  // A speaker cannot be read alone on a call whose one channel is unnamed, nor on one whose
  // channels are all unnamed; a speaker named in another case ("Agent") is the transcript's ("agent").
  const asked = request.questions.map((question): Question => (question.speaker === undefined ? question : { ...question, speaker: speakerIn(request.parts, question.speaker) }));
  for (const question of asked) {
    if (hasPhrases(question)) answers.set(question.id, answerByPhrases(question, request.parts));
    else groups.set(scopeKey(question), [...(groups.get(scopeKey(question)) ?? []), question]);
  }
  const wholeKey = scopeKey({});
  if (request.summary && !groups.has(wholeKey)) groups.set(wholeKey, []);
  let output: Omit<AnalysisOutput, 'answers'> = { engine: request.engineName, model: request.model, summary: null, tokens_used: 0 };
  for (const [key, questions] of groups) {
    const engine = await request.engine();
    const part = scopedTranscript(request.parts, questions[0] ?? {});
    const result = await engine.analyze(
      {
        transcript: { text: part.text, segments: part.segments.map(({ start, end, text }) => ({ start, end, text })) },
        instructions: request.instructions,
        questions: questions.map(({ id, text, type, examples }) => ({ id, text, type, ...(examples ? { examples } : {}) })),
        summary: request.summary && key === wholeKey,
      },
      request.signal,
    );
    // The engine placed its passages by characters; the words say when they were said.
    for (const answer of result.answers) {
      answers.set(answer.question_id, {
        ...answer,
        evidence: timedByWords(answer.evidence, request.parts.words),
        ...(answer.related ? { related: timedByWords(answer.related, request.parts.words) } : {}),
      });
    }
    output = {
      engine: result.engine,
      model: result.model,
      summary: key === wholeKey ? result.summary : output.summary,
      tokens_used: output.tokens_used + result.tokens_used,
    };
  }
  return { ...output, answers: asked.flatMap((q, i) => withScope(q, answers.get(q.id), q.speaker === undefined ? request.questions[i]!.speaker : undefined)) };
}

/** An answer says which part of the call it read and how it was reached (and, where it read everyone's words instead of one speaker's, is uncertain). */
function withScope(question: Question, answer: AnalysisAnswer | undefined, notFound: string | undefined): AnalysisAnswer[] {
  if (!answer) return [];
  return [
    {
      ...answer,
      ...(notFound !== undefined ? { confidence: Math.min(answer.confidence, SPEAKER_UNKNOWN_CONFIDENCE), speaker_not_found: notFound } : {}),
      ...(question.speaker !== undefined ? { speaker: question.speaker } : {}),
      ...(question.within_seconds !== undefined ? { within_seconds: question.within_seconds } : {}),
      ...(hasPhrases(question) ? { method: 'phrases' as const, phrases: question.phrases } : { method: 'engine' as const }),
    },
  ];
}
