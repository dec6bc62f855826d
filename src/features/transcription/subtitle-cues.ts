// Subtitle cues from a transcript's segments: a segment a reader can take in at once (up to 7 s
// and two lines of 42 characters) is one cue, as written; a longer one (a recogniser cuts only at
// pauses of 0.6 s or at 15 s) is cut where a cue would grow too long: after its last sentence end,
// else its last comma, else between words, each cue timed by its own words. Short sentences share
// a cue (a cue of two words for 0.8 s is gone before it is read). A segment without words stays whole.
import type { Segment, SpeakerWord } from '../../engines/transcription/types.ts';
import { wordsBySegment } from '../../core/transcripts/segment-words.ts';

export type CueSegment = Segment & { speaker?: string; channel?: number };
type ShownWord = SpeakerWord & { punctuated_word?: string };

export const MAX_CUE_SECONDS = 7;
export const MAX_CUE_CHARS = 84;

const shown = (word: ShownWord): string => word.punctuated_word ?? word.word;

/** The last index of `list` whose item passes `test`, or null. */
function lastIndexWhere<T>(list: readonly T[], test: (item: T) => boolean): number | null {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return null;
}

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
    for (const word of own) {
      // A word that shows nothing (inside a number) stays with the word that writes it.
      if (piece.length > 0 && shown(word) !== '') {
        const longer = [...piece, word];
        if (word.end - piece[0]!.start > MAX_CUE_SECONDS || text(longer).length > MAX_CUE_CHARS) {
          // Too long with it: cut after the piece's last sentence end, else its last comma, else here.
          let cut = lastIndexWhere(piece, (w) => /[.?!]$/.test(shown(w))) ?? lastIndexWhere(piece, (w) => /,$/.test(shown(w)));
          // The words a number's first word writes ("twenty five." → "$25.", "") stay with it.
          while (cut !== null && cut + 1 < piece.length && shown(piece[cut + 1]!) === '') cut++;
          const rest = cut !== null ? piece.slice(cut + 1) : [];
          if (cut !== null) piece = piece.slice(0, cut + 1);
          close();
          piece = rest;
        }
      }
      piece.push(word);
    }
    close();
    return cues;
  });
}
