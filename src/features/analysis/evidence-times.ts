// The times of an engine's passages, from the words that say them. An engine reads segments'
// text and places a sentence inside its segment by its share of the characters: a guess that can
// open a call in the middle of a number. Here each passage is looked for in the transcript's words
// as they are shown (a number carried by its first word), on each channel, and the occurrence
// nearest the guess gives the first word's start and the last's end. A passage not found keeps
// its times.
import type { Evidence } from '../../engines/analysis/types.ts';
import type { SpeakerWord } from '../../engines/transcription/types.ts';

const tokensOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

interface Said {
  token: string;
  /** The word that shows it. */
  word: number;
}

/** A channel's words as shown, token by token; a word that writes nothing (inside a number) shows nothing. */
function shownTokens(words: readonly SpeakerWord[]): Said[] {
  return words.flatMap((w, i) => {
    const shown = (w as { punctuated_word?: string }).punctuated_word;
    return tokensOf(shown ?? w.word).map((token) => ({ token, word: i }));
  });
}

/** `passages` with the times of the words that say them, where they are found. */
export function timedByWords<P extends Evidence>(passages: readonly P[], words: readonly SpeakerWord[]): P[] {
  if (words.length === 0 || passages.length === 0) return [...passages];
  const channels = [...new Set(words.map((w) => w.channel))].map((channel) => {
    const own = words.filter((w) => w.channel === channel).sort((a, b) => a.start - b.start);
    return { own, said: shownTokens(own) };
  });
  return passages.map((passage) => {
    const wanted = tokensOf(passage.text);
    if (wanted.length === 0) return passage;
    let best: { start: number; end: number; distance: number } | null = null;
    for (const { own, said } of channels) {
      for (let at = 0; at + wanted.length <= said.length; at++) {
        if (!wanted.every((token, k) => said[at + k]!.token === token)) continue;
        const first = said[at]!.word;
        let last = said[at + wanted.length - 1]!.word;
        // The words a number's first word writes for (they show nothing) are said with it.
        while (last + 1 < own.length && (own[last + 1] as { punctuated_word?: string }).punctuated_word === '') last++;
        const start = own[first]!.start;
        const distance = Math.abs(start - passage.start);
        if (!best || distance < best.distance) best = { start, end: own[last]!.end, distance };
      }
    }
    return best ? { ...passage, start: best.start, end: best.end } : passage;
  });
}
