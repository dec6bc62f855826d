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
  const pattern = new RegExp(`(^|[^\\p{L}\\p{N}'])(${words.map(spelt).join("[^\\p{L}\\p{N}']+")})(?=$|[^\\p{L}\\p{N}'])`, 'iu');
  for (const segment of segments) {
    if (start < segment.start - 0.05 || start > segment.end + 0.05) continue;
    const match = pattern.exec(segment.text);
    if (!match) continue;
    const at = match.index + match[1]!.length;
    return { before: segment.text.slice(0, at), found: match[2]!, after: segment.text.slice(at + match[2]!.length) };
  }
  return null;
}
