// Taking what was put forward: "fine, i'll take it", "great, do that please", "sounds good". Read
// for questions about accepting ("did the customer accept the offer / the new rate?"), where the
// thing accepted is named by the unit before the reply, not by the reply.
import type { Token, Unit } from './tokens.ts';

/** Replies that take what was offered, as word sequences found anywhere in the reply. */
const TAKING: readonly (readonly string[])[] = [
  ["i'll", 'take'], ['i', 'will', 'take'], ["we'll", 'take'], ['do', 'that'], ['do', 'it'], ["let's", 'do'], ['sounds', 'good'], ['sounds', 'great'],
  ['that', 'works'], ['works', 'for', 'me'], ['go', 'ahead'], ['yes', 'please'], ["that's", 'fine'], ['is', 'fine'], ["that'd", 'be', 'great'],
  ["i'll", 'go', 'with'], ['deal'],
];
/** What a question may call the thing accepted without naming it: "the offer", "the deal". */
export const GENERIC_OFFERS = new Set(['offer', 'deal', 'proposal', 'suggestion', 'option', 'solution', 'resolution', 'compromise']);
/** Words with which a speaker puts something forward: "what i can do is…", "i can give you…", "how about…". */
const PROPOSING: readonly (readonly string[])[] = [
  ['i', 'can'], ['we', 'can'], ['i', 'could'], ['we', 'could'], ["i'll"], ["we'll"], ['how', 'about'], ['would', 'you', 'like'], ['we', 'have'], ['i', 'have'], ['able', 'to'], ['i', 'offer'], ['we', 'offer'],
];

function findSequence(toks: Token[], seq: readonly string[]): number {
  for (let i = 0; i + seq.length <= toks.length; i++) if (seq.every((w, k) => toks[i + k]?.normal === w)) return i;
  return -1;
}

/** The reply takes what was put forward, and does not refuse it ("i'll take it", not "i won't take it"). */
export function accepts(reply: Unit): boolean {
  const words = reply.toks.filter((t) => t.type !== 'punctuation');
  return TAKING.some((seq) => {
    const at = findSequence(words, seq);
    return at >= 0 && !words.slice(at, at + seq.length).some((t) => t.neg || t.inq);
  });
}

/** The unit puts something forward that its reply could take. */
export function proposes(u: Unit): boolean {
  const words = u.toks.filter((t) => t.type !== 'punctuation');
  return PROPOSING.some((seq) => {
    const at = findSequence(words, seq);
    return at >= 0 && !words.slice(at, at + seq.length + 1).some((t) => t.neg);
  });
}
