// Words said of what could, would or usually happens rather than of what did: "you could keep
// your membership", "a third device would require upgrading", "if you upgrade", "i'd like a
// refund", "there's normally a notice period". A call says such things as often when the thing
// did not happen, so they answer no factual question ("did the customer upgrade?").
import { SUBJECT_PRONOUNS } from './lexicon.ts';
import type { Token } from './tokens.ts';

/** Modals that, after another party ("you could", "they might"), only say what is possible. */
const POSSIBILITY = new Set(['can', 'could', 'may', 'might']);
/** Words that open a clause of what is wished, supposed or usual, whoever says it. */
const OPENERS = new Set(['would', 'if', 'unless', 'whether', 'normally', 'usually', 'typically', 'generally']);
/** Contractions of "would" ("i'd", "you'd"); "'d" also shortens "had", told apart by what follows. */
const WOULD_CONTRACTION = /^(i|you|we|they|he|she|it|that)'d$/;
/** Wishing verbs after a subject: "i want to", "we hope to", "i'd like" (the "would" opens it already). */
const WISHING = new Set(['want', 'hope', 'wish', 'plan']);
const CLAUSE_BREAK = new Set(['and', 'but', 'or', 'so', 'because', 'although', 'though', 'however', 'yet', 'then', 'until', 'while', 'whereas', 'since', 'when']);
const SCOPE = 8;

/** Whether an irrealis clause opens at `i`. */
function opensAt(toks: Token[], i: number): boolean {
  const t = toks[i]!;
  const prev = toks[i - 1]?.normal;
  const next = toks[i + 1];
  if (OPENERS.has(t.normal)) return true;
  // "i'd like", "you'd need to": a would; "i'd been" is a had.
  if (WOULD_CONTRACTION.test(t.normal)) return next !== undefined && next.normal !== 'been' && next.normal !== 'already';
  if (POSSIBILITY.has(t.normal) && prev !== undefined && prev !== 'i' && prev !== 'we' && SUBJECT_PRONOUNS.has(prev)) return true;
  return WISHING.has(t.lemma) && t.pos === 'VERB' && prev !== undefined && SUBJECT_PRONOUNS.has(prev);
}

/** Marks the words of each irrealis clause, from its opener to a clause boundary. */
export function markIrrealis(toks: Token[]): void {
  for (let i = 0; i < toks.length; i++) {
    if (!opensAt(toks, i)) continue;
    for (let k = i + 1; k < toks.length && k <= i + SCOPE; k++) {
      const o = toks[k]!;
      if (o.type === 'punctuation' || CLAUSE_BREAK.has(o.normal)) break;
      o.irr = true;
    }
  }
}
