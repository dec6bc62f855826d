// Personal names from self-introductions ("this is paula", "my name is maria gonzalez"): the lite
// NER rarely tags lowercase names, so the words after an introduction cue are taken instead.
import { type AnswerBody, uniqueEvidence } from './evidence.ts';
import { clamp, round2 } from './format.ts';
import { FILLERS, POLITE } from './lexicon.ts';
import type { Token, Unit } from './tokens.ts';

const NAME_CUES: string[][] = [
  ['name', 'is'], ['name', "'s"], ['this', 'is'], ['speaking', 'with'], ['speaking', 'to'], ['through', 'to'], ['i', 'am'],
  ["i'm"], ['it', 'is'], ['it', "'s"],
];

function nameWord(t: Token | undefined): t is Token {
  return t !== undefined && !t.stop && t.type === 'word' && !FILLERS.has(t.normal) && !POLITE.has(t.normal) &&
    t.pos !== 'VERB' && t.pos !== 'ADJ' && t.pos !== 'ADV';
}

function capitalised(toks: Token[]): string {
  return toks.map((t) => (t.value[0]?.toUpperCase() ?? '') + t.value.slice(1)).join(' ');
}

/** Up to three words after the first cue, capitalised; null without a cue or a plausible name. */
function findName(u: Unit, bare: boolean): string | null {
  // A bare reply to "and your name?": one to three name-like words and nothing else.
  const words = u.toks.filter((t) => t.type !== 'punctuation');
  if (bare && words.length >= 1 && words.length <= 3 && words.every((t) => nameWord(t) && t.ent === null)) return capitalised(words);
  for (const cue of NAME_CUES) {
    for (let i = 0; i + cue.length <= u.toks.length; i++) {
      if (!cue.every((c, k) => u.toks[i + k]?.normal === c || u.toks[i + k]?.value.toLowerCase() === c)) continue;
      const out: Token[] = [];
      for (let k = i + cue.length; k < u.toks.length && out.length < 3; k++) {
        const t = u.toks[k];
        if (!nameWord(t)) break;
        out.push(t);
      }
      if (out.length > 0) return capitalised(out);
    }
  }
  return null;
}

/** The name in the first of `units` that has one; `bare` accepts a reply that is only a name. */
export function nameAnswer(units: Unit[], confidence: number, bare = false): AnswerBody<string> | null {
  for (const u of units) {
    const name = findName(u, bare);
    if (name !== null) return { answer: name, confidence: round2(clamp(confidence, 0.2, 0.9)), evidence: uniqueEvidence([u]) };
  }
  return null;
}
