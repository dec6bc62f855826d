// A phrase rule's evidence is the words it found ("refund"); a reviewer reads them in the turn
// they were said in ("I can't refund it"), with the found words marked.

export interface PassageParts {
  before: string;
  found: string;
  after: string;
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The segment the words `found` were said in (the one running at `start`), cut around them; null
 * where no segment there holds them (an earlier transcript, a phrase heard in the audio alone).
 */
export function passageAround(found: string, start: number, segments: readonly { start: number; end: number; text: string }[]): PassageParts | null {
  const words = found.toLowerCase().match(/[\p{L}\p{N}']+/gu);
  if (!words || words.length === 0) return null;
  // The words as the segment writes them: any case, any marks or spaces between them ("Thank you, for calling").
  // The evidence's words lost their apostrophes ("dont"): one may stand between any two letters ("don't").
  const spelt = (word: string) => [...word].map(escape).join("['’]?");
  const pattern = new RegExp(`(^|[^\\p{L}\\p{N}'])(${words.map(spelt).join("[^\\p{L}\\p{N}']+")})(?=$|[^\\p{L}\\p{N}'])`, 'giu');
  for (const segment of segments) {
    if (start < segment.start - 0.05 || start > segment.end + 0.05) continue;
    // Said twice in the turn ("refund… no refund"): the time of each is guessed from where it
    // stands in the text (the turn's time spread over its characters), and the one nearest the
    // evidence's time is marked.
    const length = Math.max(1, segment.text.length);
    const guess = (index: number) => segment.start + ((segment.end - segment.start) * index) / length;
    let best: { at: number; found: string } | null = null;
    for (const match of segment.text.matchAll(pattern)) {
      const at = match.index + match[1]!.length;
      if (!best || Math.abs(guess(at) - start) < Math.abs(guess(best.at) - start)) best = { at, found: match[2]! };
    }
    if (!best) continue;
    return { before: segment.text.slice(0, best.at), found: best.found, after: segment.text.slice(best.at + best.found.length) };
  }
  return null;
}
