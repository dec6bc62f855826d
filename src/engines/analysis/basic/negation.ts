// Local negation scope. wink's own scope runs to the end of the sentence, which in unpunctuated
// recogniser output is the whole segment: "i didn't ask for a refund i just want it fixed".
// Negators are the negative words ("not", "never", "no"...) and negative verbs ("declined",
// "refused to", "stopped", "unable to"); a passive negative verb ("the claim was rejected") also
// negates its subject, and a negated one ("don't forget to") negates nothing.
import { isNegativeVerb, NEGATORS, SUBJECT_PRONOUNS } from './lexicon.ts';
import type { Token } from './tokens.ts';

const CLAUSE_BREAK = new Set([
  'and', 'but', 'or', 'so', 'because', 'although', 'though', 'however', 'yet', 'then', 'until', 'unless',
  'while', 'whereas', 'if', 'since', 'when',
]);
/** Auxiliaries of a passive ("was declined", "got rejected", "has been refused"). */
const PASSIVE_AUX = new Set(['be', 'get']);
const SCOPE = 6;

function isBreak(o: Token): boolean {
  return o.type === 'punctuation' || CLAUSE_BREAK.has(o.normal);
}

/** "no problem", "no worries", "not a problem" reassure; they negate nothing. */
function reassures(toks: Token[], i: number): boolean {
  const next = toks[i + 1]?.normal;
  const t = toks[i]?.normal;
  if (t === 'no') return next === 'problem' || next === 'worries' || next === 'worry';
  return t === 'not' && next === 'a' && toks[i + 2]?.normal === 'problem';
}

function mark(o: Token, by: number): void {
  o.neg = true;
  if (o.negBy < 0) o.negBy = by;
}

/** The subject of a passive negative verb: "the (replacement) card was declined". */
function markPassiveSubject(toks: Token[], i: number): void {
  let k = i - 1;
  let sawAux = false;
  while (k >= 0) {
    const o = toks[k];
    if (o === undefined || !(PASSIVE_AUX.has(o.lemma) || o.normal === 'been' || o.normal === 'not')) break;
    if (PASSIVE_AUX.has(o.lemma)) sawAux = true;
    k--;
  }
  if (!sawAux) return;
  for (let n = 0; k >= 0 && n < 4; k--, n++) {
    const o = toks[k];
    if (o === undefined || isBreak(o) || SUBJECT_PRONOUNS.has(o.normal) || o.pos === 'VERB' || o.pos === 'AUX') break;
    mark(o, i);
  }
}

/** Marks a few tokens after each negator, cut at a clause boundary or a new subject. */
export function markNegation(toks: Token[]): void {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === undefined) continue;
    const verb = isNegativeVerb(t.lemma, t.pos) && !t.neg;
    if (!verb && !NEGATORS.has(t.normal)) continue;
    if (reassures(toks, i)) continue;
    if (verb && t.pos === 'VERB') markPassiveSubject(toks, i);
    for (let k = i + 1; k < toks.length && k <= i + SCOPE; k++) {
      const o = toks[k];
      if (o === undefined || isBreak(o)) break;
      if (k > i + 1 && SUBJECT_PRONOUNS.has(o.normal)) break;
      // "no i didn't": the "no" answers a question and the clause after it is separate.
      if (k === i + 1 && t.normal === 'no' && SUBJECT_PRONOUNS.has(o.normal)) break;
      mark(o, i);
      // A negated negative verb cancels out: "don't forget to bring it", "we never refused to pay".
      if (isNegativeVerb(o.lemma, o.pos)) break;
    }
  }
}
