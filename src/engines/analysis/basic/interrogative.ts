// Finds interrogative clauses without relying on punctuation: recognisers rarely emit "?", so
// subject-auxiliary inversion and wh-words are the cues.
import { NEGATORS, SUBJECT_PRONOUNS, WH_FOLLOWERS, WH_WORDS } from './lexicon.ts';
import type { Token } from './tokens.ts';

const QUESTION_AUX = new Set([
  'be', 'do', 'have', 'can', 'could', 'will', 'would', 'should', 'may', 'might', 'shall', 'must',
]);
/** Subjects that can follow an inverted auxiliary besides personal pronouns ("is there", "did your"). */
const INVERSION_SUBJECTS = new Set([
  'there', 'it', 'anyone', 'anybody', 'everyone', 'everybody', 'someone', 'somebody', 'the', 'your', 'my', 'his',
  'her', 'their', 'our', 'this', 'that', 'these', 'those', 'any', 'a', 'an',
]);

/** Marks every token from the first question cue to the end of the unit. */
export function markInterrogative(toks: Token[]): void {
  const last = toks[toks.length - 1];
  if (last !== undefined && last.value === '?') {
    for (const t of toks) t.inq = true;
    return;
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    const next = toks[i + 1];
    if (t === undefined || next === undefined) continue;
    const prev = toks[i - 1];
    let trigger = false;
    // An auxiliary after a negator or another auxiliary ("there won't be any") is not inverted.
    const afterAux = prev !== undefined && (NEGATORS.has(prev.normal) || (prev.pos === 'AUX' && QUESTION_AUX.has(prev.lemma)));
    if (QUESTION_AUX.has(t.lemma) && (t.pos === 'AUX' || t.pos === 'VERB') && !NEGATORS.has(next.normal) && !afterAux) {
      if (SUBJECT_PRONOUNS.has(next.normal)) {
        trigger = prev === undefined || !SUBJECT_PRONOUNS.has(prev.normal);
      } else if (INVERSION_SUBJECTS.has(next.normal)) {
        // "that is the one" is declarative: the subject precedes the verb.
        trigger = prev === undefined || !['PRON', 'NOUN', 'PROPN', 'NUM'].includes(prev.pos);
      }
    }
    if (!trigger && WH_WORDS.has(t.normal) && (prev === undefined || prev.pos !== 'VERB')) {
      if ((QUESTION_AUX.has(next.lemma) && next.pos === 'AUX') || WH_FOLLOWERS.has(next.normal)) trigger = true;
    }
    if (trigger) {
      for (let k = i; k < toks.length; k++) {
        const o = toks[k];
        if (o === undefined) break;
        o.inq = true;
      }
      return;
    }
  }
}
