// A transcription scenario's `vocabulary`: a team's own terms (product names, jargon), each a word
// or a short phrase, or `{phrase, sounds_like}` when the spelling does not say how it is said.
// Stored as given; engines get them as terms (pocketsphinx adds them to its dictionary, the others
// to their prompt); formatted transcripts write them as the team spells them.
import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../errors.ts';
import type { VocabularyTerm } from '../../engines/transcription/types.ts';

export const MAX_VOCABULARY = 200;
const MAX_TERM_WORDS = 6;

const Term = Type.String({ minLength: 1, maxLength: 60 });
export const VocabularySchema = Type.Array(
  Type.Union([
    Term,
    Type.Object(
      {
        phrase: Term,
        sounds_like: Type.Optional(Type.Array(Term, { minItems: 1, maxItems: 5, description: 'How it is said, in ordinary words ("zen desk")' })),
      },
      { additionalProperties: false },
    ),
  ]),
  {
    maxItems: MAX_VOCABULARY,
    description: `Up to ${MAX_VOCABULARY} terms the engine is to expect (product names, jargon): each a word or a phrase of up to ${MAX_TERM_WORDS} words, or {"phrase": "Zendesk", "sounds_like": ["zen desk"]}. pocketsphinx adds each to its dictionary (pronounced from its own dictionary, or by espeak-ng) and makes it likelier; whisper.cpp and OpenAI-compatible engines get the terms in their prompt. Formatted text writes a term as spelled here.`,
  },
);
export type Vocabulary = Static<typeof VocabularySchema>;

export const MAX_SPOT = 50;

export const SpotSchema = Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
  maxItems: MAX_SPOT,
  description: `Up to ${MAX_SPOT} phrases pocketsphinx searches the audio for with its keyword spotting (a second pass, per channel), whatever the transcript makes of them: the transcript gains spotted: [{phrase, start, end, channel, speaker, confidence}], and phrase rules that name a spotted phrase are answered from it (evidence source "audio"). pocketsphinx only.`,
});

/** A 400 naming the first phrase to spot without a letter, with digits or too many words. */
export function checkSpotWords(spot: readonly string[] | undefined): void {
  (spot ?? []).forEach((phrase, i) => checkSaid(phrase, `options/spot/${i}`));
}

/** A 400 at `where` when `text` cannot be said as a term: no letters, digits, over MAX_TERM_WORDS words. */
function checkSaid(text: string, where: string): void {
  if (!/\p{L}/u.test(text)) throw invalid(where, `"${text}" has no letters to pronounce`);
  if (/\d/.test(text)) throw invalid(where, `"${text}" has digits: write numbers as said ("Windows eleven")`);
  const symbol = /[^\p{L}\p{M}\s'’.\-&+#/]/u.exec(text);
  if (symbol) throw invalid(where, `"${text}" has "${symbol[0]}", which is not said: write the term in letters as it is said`);
  if (text.trim().split(/\s+/).length > MAX_TERM_WORDS) throw invalid(where, `"${text}" is longer than ${MAX_TERM_WORDS} words`);
}

/** The terms of a stored vocabulary. */
export function vocabularyTerms(vocabulary: Vocabulary | undefined): VocabularyTerm[] {
  return (vocabulary ?? []).map((term) => (typeof term === 'string' ? { phrase: term } : term));
}

/** A 400 naming the first term (or sounds_like) without a letter, with digits or too many words. */
/** `pathOf`: where term `i` was given, to name it in the error (a scenario's options by default). */
export function checkVocabularyWords(vocabulary: Vocabulary | undefined, pathOf: (i: number) => string = (i) => `options/vocabulary/${i}`): void {
  vocabularyTerms(vocabulary).forEach((term, i) => {
    checkSaid(term.phrase, pathOf(i));
    (term.sounds_like ?? []).forEach((said, j) => checkSaid(said, `${pathOf(i)}.sounds_like[${j}]`));
  });
}

/** A term with capitals: its words in lower case, and as the team writes them. */
export interface CasedTerm {
  words: string[];
  written: string[];
}

/** The terms written with capitals ("Zendesk", "HubSpot CRM"); a term all in lower case needs none. */
export function vocabularyCasing(vocabulary: Vocabulary | undefined): CasedTerm[] {
  const terms: CasedTerm[] = [];
  for (const term of vocabularyTerms(vocabulary)) {
    const written = term.phrase.split(/\s+/).map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean);
    if (written.some((word) => word !== word.toLowerCase())) terms.push({ words: written.map((word) => word.toLowerCase()), written });
  }
  return terms;
}
