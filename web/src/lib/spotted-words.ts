// Which words of a transcript a spotted phrase covers: keyword spotting heard the phrase in the
// audio of one channel between two times, and the words said there (the recogniser's, often
// garbled: "a nice apart" for "acme support") are marked with it in the transcript.

export interface TimedWord {
  start: number;
  end: number;
  channel: number;
}
export interface SpottedPhrase {
  phrase: string;
  start: number;
  end: number;
  channel: number;
}

/** Each covered word's index with the phrase heard over it (a word under two phrases keeps the first). */
export function spottedWords(words: readonly TimedWord[], spotted: readonly SpottedPhrase[]): Map<number, string> {
  const marked = new Map<number, string>();
  for (const spot of spotted) {
    words.forEach((word, index) => {
      // A word belongs to the phrase when most of it falls inside the phrase's span.
      const overlap = Math.min(word.end, spot.end) - Math.max(word.start, spot.start);
      if (word.channel === spot.channel && overlap > (word.end - word.start) / 2 && !marked.has(index)) marked.set(index, spot.phrase);
    });
  }
  return marked;
}
