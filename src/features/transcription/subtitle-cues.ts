// Subtitle cues from a transcript's segments: a segment a reader can take in at once (up to 7 s
// and two lines of 42 characters) is one cue, as written; a longer one (a recogniser cuts only at
// pauses of 0.6 s or at 15 s) is cut at its sentence ends, then at its commas or between words,
// each cue timed by its own words. A segment without words stays whole.
import type { Segment, SpeakerWord } from '../../engines/transcription/types.ts';
import { wordsBySegment } from '../../core/transcripts/segment-words.ts';

export type CueSegment = Segment & { speaker?: string; channel?: number };
type ShownWord = SpeakerWord & { punctuated_word?: string };

export const MAX_CUE_SECONDS = 7;
export const MAX_CUE_CHARS = 84;

const shown = (word: ShownWord): string => word.punctuated_word ?? word.word;

/** The cues of `segments`, whose words are `words` (each a segment's by its channel and time). */
export function subtitleCues(segments: readonly CueSegment[], words: readonly ShownWord[]): CueSegment[] {
  if (words.length === 0) return [...segments];
  const owned = wordsBySegment(segments.map((s) => ({ start: s.start, end: s.end, channel: s.channel ?? 0 })), words);
  return segments.flatMap((segment, s) => {
    const own = owned[s]!.map((i) => words[i]!);
    if (own.length === 0 || (segment.end - segment.start <= MAX_CUE_SECONDS && segment.text.trim().length <= MAX_CUE_CHARS)) return [segment];
    const cues: CueSegment[] = [];
    let piece: ShownWord[] = [];
    const text = (list: ShownWord[]) => list.map(shown).filter(Boolean).join(' ');
    const close = () => {
      if (piece.length === 0) return;
      cues.push({ ...segment, start: piece[0]!.start, end: piece.at(-1)!.end, text: text(piece) });
      piece = [];
    };
    for (const [k, word] of own.entries()) {
      // A word that shows nothing (inside a number) stays with the word that writes it.
      if (piece.length > 0 && shown(word) !== '') {
        const longer = [...piece, word];
        if (word.end - piece[0]!.start > MAX_CUE_SECONDS || text(longer).length > MAX_CUE_CHARS) {
          // Too long with it: cut after the piece's last comma where there is one, else here.
          let comma = piece.length - 1;
          while (comma > 0 && !/,$/.test(shown(piece[comma]!))) comma--;
          const rest = comma > 0 ? piece.slice(comma + 1) : [];
          if (comma > 0) piece = piece.slice(0, comma + 1);
          close();
          piece = rest;
        }
      }
      piece.push(word);
      const next = own[k + 1];
      const ends = /[.?!]$/.test(shown(word)) && (next === undefined || shown(next) !== '');
      if (ends) close();
    }
    close();
    return cues;
  });
}
