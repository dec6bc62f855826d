// Which words are a segment's: its channel's words that start inside it (a hundredth of a second
// either side), each word one segment's only. Where two segments touch (a long turn cut at 15 s),
// a word starting at the cut is the later segment's: written in both, it was said twice.
import type { SpeakerSegment, SpeakerWord } from '../../engines/transcription/types.ts';

const SLACK = 0.01;

/** The indexes of each segment's words, in the words' order. */
export function wordsBySegment(segments: readonly Pick<SpeakerSegment, 'start' | 'end' | 'channel'>[], words: readonly Pick<SpeakerWord, 'start' | 'channel'>[]): number[][] {
  const owned = segments.map((): number[] => []);
  words.forEach((word, i) => {
    let best = -1;
    segments.forEach((segment, s) => {
      if (segment.channel !== word.channel || word.start < segment.start - SLACK || word.start >= segment.end + SLACK) return;
      if (best === -1 || segment.start > segments[best]!.start) best = s;
    });
    if (best !== -1) owned[best]!.push(i);
  });
  return owned;
}
