// Local negation scope. wink's own scope runs to the end of the sentence, which in unpunctuated
// recogniser output is the whole segment: "i didn't ask for a refund i just want it fixed".
import { NEGATORS, SUBJECT_PRONOUNS } from './lexicon.ts';
import type { Token } from './tokens.ts';

const CLAUSE_BREAK = new Set([
  'and', 'but', 'or', 'so', 'because', 'although', 'though', 'however', 'yet', 'then', 'until', 'unless',
  'while', 'whereas', 'if', 'since', 'when',
]);

/** Marks a few tokens after each negator, cut at a clause boundary or a new subject. */
export function markNegation(toks: Token[]): void {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === undefined || !NEGATORS.has(t.normal)) continue;
    // "no problem" and "no worries" reassure; they negate nothing.
    const next = toks[i + 1];
    if (next !== undefined && t.normal === 'no' && (next.normal === 'problem' || next.normal === 'worries')) continue;
    for (let k = i + 1; k < toks.length && k <= i + 6; k++) {
      const o = toks[k];
      if (o === undefined) break;
      if (o.type === 'punctuation' || CLAUSE_BREAK.has(o.normal)) break;
      if (k > i + 1 && SUBJECT_PRONOUNS.has(o.normal)) break;
      // "no i didn't": the "no" answers a question and the clause after it is separate.
      if (k === i + 1 && t.normal === 'no' && SUBJECT_PRONOUNS.has(o.normal)) break;
      o.neg = true;
    }
  }
}
