// Questions that target a speaker, a time window or exact phrases. Each question sees only its
// part of the transcript (one speaker's words, the first N seconds); phrase questions are answered
// by the phrase rule without a model; the others go to the engine once per distinct part, the
// scenario's summary with the whole transcript. Answers come back in the scenario's order.
import type { Question } from './analysis-scenarios.ts';
import type { AnalysisAnswer, AnalysisEngine, AnalysisOutput } from '../../engines/analysis/types.ts';
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';
import { severalSpeakers, turnsText } from '../transcription/speakers.ts';
import { matchPhrases, normalWords, timedTokens, type TimedToken } from './phrase-match.ts';

export interface TranscriptParts {
  text: string;
  segments: SpeakerSegment[];
  words: SpeakerWord[];
  /** Phrases keyword spotting found in the audio (the transcription scenario's `spot`). */
  spotted?: readonly { phrase: string; start: number; end: number; speaker: string; confidence: number }[];
}

interface Scope {
  speaker?: string | undefined;
  within_seconds?: number | undefined;
}

const scopeKey = (q: Scope) => `${q.speaker ?? ''}\u0000${q.within_seconds ?? ''}`;
const whole = (q: Scope) => q.speaker === undefined && q.within_seconds === undefined;

/** The part of a transcript a question may look at. */
export function scopedTranscript(parts: TranscriptParts, scope: Scope): TranscriptParts {
  if (whole(scope)) return parts;
  const limit = scope.within_seconds ?? Infinity;
  const mine = <T extends { speaker: string; start: number }>(item: T) => (scope.speaker === undefined || item.speaker === scope.speaker) && item.start < limit;
  const words = parts.words.filter(mine);
  const segments = parts.segments.filter(mine).map((segment) => {
    if (segment.end <= limit) return segment;
    // A segment running past the window keeps only the words said inside it.
    // Without words, the share of its words said by the limit, as if spoken at an even pace.
    const inside = words.filter((w) => w.channel === segment.channel && w.start >= segment.start && w.start < limit);
    const all = segment.text.split(/\s+/).filter(Boolean);
    const share = Math.floor((all.length * (limit - segment.start)) / Math.max(0.001, segment.end - segment.start));
    return { ...segment, end: limit, text: parts.words.length ? inside.map((w) => w.word).join(' ') : all.slice(0, share).join(' ') };
  });
  const text = severalSpeakers(segments) ? turnsText(segments) : segments.map((s) => s.text.trim()).join('\n');
  return { text, segments, words };
}

/** Timed tokens of a transcript part: its words, or its segments' words at the segment's times. */
function tokensOf(parts: TranscriptParts): TimedToken[] {
  if (parts.words.length > 0) return timedTokens(parts.words);
  return parts.segments.flatMap((s) => normalWords(s.text).map((word) => ({ word, start: s.start, end: s.end })));
}

export function answerByPhrases(question: Question & { phrases: string[] }, parts: TranscriptParts): AnalysisAnswer {
  const tokens = tokensOf(scopedTranscript(parts, question));
  const matches = matchPhrases(question.phrases, tokens);
  const best = matches[0];
  if (!best) {
    // Not in the words: a phrase of the question that spotting heard in the audio answers it.
    const wanted = new Set(question.phrases.map((phrase) => normalWords(phrase).join(' ')));
    const limit = question.within_seconds ?? Infinity;
    const heard = (parts.spotted ?? []).filter((spot) => wanted.has(normalWords(spot.phrase).join(' ')) && (question.speaker === undefined || spot.speaker === question.speaker) && spot.start < limit);
    if (heard.length > 0) {
      return {
        question_id: question.id,
        question: question.text,
        type: 'boolean',
        answer: true,
        confidence: Math.max(...heard.map((spot) => spot.confidence)),
        evidence: heard.slice(0, 5).map((spot) => ({ text: spot.phrase, start: spot.start, end: spot.end, source: 'audio' as const })),
      };
    }
  }
  return {
    question_id: question.id,
    question: question.text,
    type: 'boolean',
    answer: best !== undefined,
    // Nothing said in the question's part (a speaker the call does not have): false, but unsure.
    confidence: best ? Math.round((1 - best.edits / Math.max(1, normalWords(best.phrase).length)) * 1000) / 1000 : tokens.length > 0 ? 1 : 0,
    evidence: matches.slice(0, 5).map((m) => ({ text: m.text, start: m.start, end: m.end, source: 'transcript' as const })),
  };
}

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

export async function analyzeTranscript(request: AnalysisRequest): Promise<AnalysisOutput> {
  const answers = new Map<string, AnalysisAnswer>();
  const groups = new Map<string, Question[]>();
  for (const question of request.questions) {
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
    for (const answer of result.answers) answers.set(answer.question_id, answer);
    output = {
      engine: result.engine,
      model: result.model,
      summary: key === wholeKey ? result.summary : output.summary,
      tokens_used: output.tokens_used + result.tokens_used,
    };
  }
  return { ...output, answers: request.questions.flatMap((q) => withScope(q, answers.get(q.id))) };
}

/** An answer says which part of the call it read and how it was reached. */
function withScope(question: Question, answer: AnalysisAnswer | undefined): AnalysisAnswer[] {
  if (!answer) return [];
  return [
    {
      ...answer,
      ...(question.speaker !== undefined ? { speaker: question.speaker } : {}),
      ...(question.within_seconds !== undefined ? { within_seconds: question.within_seconds } : {}),
      method: hasPhrases(question) ? 'phrases' : 'engine',
    },
  ];
}
