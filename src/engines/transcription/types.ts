// The interface every transcription engine implements.
import type { Config } from '../../config.ts';

export interface Word {
  start: number;
  end: number;
  word: string;
  confidence: number;
}

export interface Segment {
  start: number;
  end: number;
  text: string;
}

/** A segment of a stored transcript: who said it, on which channel of the audio. */
export interface SpeakerSegment extends Segment {
  channel: number;
  speaker: string;
}

export interface SpeakerWord extends Word {
  channel: number;
  speaker: string;
}

export interface TranscriptionRequest {
  /** The prepared 16 kHz mono s16le WAV. */
  audioPath: string;
  durationSeconds: number;
  /** "auto" or a language code. */
  language: string;
  model: string;
  wordTimestamps: boolean;
  prompt?: string;
  /** A team's own terms, made likelier (pocketsphinx: added to its dictionary; others: in the prompt). */
  vocabulary?: VocabularyTerm[];
  /** Phrases to search the audio for (pocketsphinx: keyword spotting, besides the transcript). */
  spot?: string[];
}

/** A phrase found in the audio by keyword spotting, with its times and the detector's confidence. */
export interface SpottedPhrase {
  phrase: string;
  start: number;
  end: number;
  confidence: number;
}

/** A term a scenario teaches its engine: a word or a short phrase, and how it sounds when the spelling does not say. */
export interface VocabularyTerm {
  phrase: string;
  sounds_like?: string[];
}

export interface TranscriptionResult {
  language: string;
  text: string;
  segments: Segment[];
  words: Word[];
  /** Seconds the engine spent in each of its phases (pocketsphinx: cmn, search, lattice), summed over pieces decoded side by side. */
  timings?: Record<string, number>;
  /** The request's `spot` phrases found in the audio (engines that spot). */
  spotted?: SpottedPhrase[];
}

/** For each word, the natural log of the odds that a sentence ends just before it (an engine's language model). */
export type SentenceOdds = (words: readonly string[]) => number[];

export interface TranscribeControl {
  signal: AbortSignal;
  /** Fraction done, 0..1. */
  onProgress: (fraction: number) => void;
}

export interface TranscriptionEngine {
  readonly name: string;
  transcribe(request: TranscriptionRequest, control: TranscribeControl): Promise<TranscriptionResult>;
}

export { EngineError } from '../../platform/engine-error.ts';

export interface EngineSettings {
  config: Config;
  /** Scenario options that reach the engine (endpoint of an openai engine). */
  baseUrl: string | null;
}
