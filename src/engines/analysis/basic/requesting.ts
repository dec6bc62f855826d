// Asking for something, in a question, a wish or an order: what a question about asking ("did the
// customer ask for a refund?") is answered by.
import type { Unit } from './tokens.ts';

/** Words with which a speaker asks for something in a statement: "i want…", "i'd like…", "please…". */
const REQUESTING = new Set(['want', 'like', 'need', 'please', 'wonder', 'hope', 'wish', 'prefer', 'rather']);
/** Words after which a verb in its base form is an order: "just send it", "so cancel it", "now give me". */
const IMPERATIVE_LEAD = new Set(['just', 'please', 'so', 'now', 'then', 'and', 'but', 'okay', 'ok', 'well', 'yeah', 'no', 'hi', 'hey']);

/**
 * The unit asks for something: a question ("can you…"), a wish ("i'd like…", "i need…") or an
 * order ("just send my money back"). A statement of what will happen ("you'll get a cheque") asks
 * for nothing, whoever's words it uses.
 */
export function requests(u: Unit): boolean {
  if (u.hasInq) return true;
  const words = u.toks.filter((t) => t.type !== 'punctuation');
  return words.some((t, i) => {
    if (REQUESTING.has(t.lemma)) return true;
    const prev = words[i - 1];
    return t.pos === 'VERB' && t.normal === t.lemma && (prev === undefined || IMPERATIVE_LEAD.has(prev.normal));
  });
}
