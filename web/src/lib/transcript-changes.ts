// What a transcription scenario's save changes in the transcripts it makes (beside the channels'
// names, said on their own): transcripts made before keep what they had, so the page offers to
// transcribe earlier calls again. Retries, the name and `auto` change no transcript.
import type { Schemas } from '../api/client.ts';

type Scenario = Pick<Schemas['TranscriptionScenario'], 'engine' | 'model' | 'language' | 'options'>;

/** Each part of a scenario that shapes its transcripts, by the words a person knows it by. */
const PARTS: [string, (s: Scenario) => unknown][] = [
  ['engine', (s) => [s.engine, s.model, s.language, s.options.base_url ?? null, s.options.prompt ?? null]],
  ['vocabulary', (s) => s.options.vocabulary ?? []],
  ['phrases to find', (s) => s.options.spot ?? []],
  ['formatting', (s) => s.options.format ?? true],
  ['redaction', (s) => [s.options.redact ?? [], s.options.redact_audio ?? false]],
  ['channels', (s) => s.options.channels ?? 'auto'],
  ['summary', (s) => s.options.summary ?? false],
  ['chapters', (s) => s.options.chapters ?? true],
  ['word timings', (s) => s.options.word_timestamps],
];

/** The parts a save changes, in words ("vocabulary", "phrases to find"); none before the first read. */
export function transcriptChanges(before: Scenario | undefined, after: Scenario): string[] {
  if (!before) return [];
  return PARTS.filter(([, read]) => JSON.stringify(read(before)) !== JSON.stringify(read(after))).map(([words]) => words);
}

/** Said beside every offer to transcribe many calls again: corrections made by hand are not carried over. */
export const CORRECTIONS_NOT_CARRIED =
  'A call whose transcript was corrected by hand gets a new one too, made from the audio without the corrections (the corrected transcript stays with its earlier run).';
