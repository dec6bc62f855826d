// The interface every analysis engine implements: a transcript and questions in, answers with evidence out.
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface AnalysisInput {
  transcript: { text: string; segments: TranscriptSegment[] };
  instructions: string;
  /** `examples`: sentences that mean "yes" to a boolean question, read beside its text. */
  questions: { id: string; text: string; type: 'boolean' | 'text'; examples?: string[] }[];
  summary: boolean;
}

/** A passage of the transcript that supports an answer, with its times in seconds. */
export interface Evidence {
  text: string;
  start: number;
  end: number;
  /** Where a phrase rule found it: the transcript's words, or keyword spotting in the audio. */
  source?: 'transcript' | 'audio';
}

export interface AnalysisAnswer {
  question_id: string;
  question: string;
  type: 'boolean' | 'text';
  answer: boolean | string;
  /** 0..1 */
  confidence: number;
  /** The passages the answer rests on: they say what the answer says. */
  evidence: Evidence[];
  /** Passages that resemble the question but did not settle it (shown apart, never as evidence). */
  related?: Evidence[];
  /** The question's scope, as the run read it (set by Hark, not by engines). */
  speaker?: string;
  within_seconds?: number;
  /** The question's speaker, not named in the transcript: everyone's words were read instead. */
  speaker_not_found?: string;
  method?: 'phrases' | 'engine';
  /** With method "phrases": the phrases the rule looked for. */
  phrases?: string[];
}

export interface AnalysisOutput {
  engine: string;
  model: string;
  /** null when no summary was asked for. */
  summary: string | null;
  answers: AnalysisAnswer[];
  tokens_used: number;
}

export interface AnalysisEngine {
  readonly name: string;
  /** Rejects with the signal's reason (or an AbortError) once `signal` is aborted. */
  analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisOutput>;
}

export { EngineError } from '../../platform/engine-error.ts';
