// Personal names from self-introductions ("this is paula", "my name is maria gonzalez"): the lite
// NER rarely tags lowercase names, so the words after an introduction cue are taken instead.
import { type AnswerBody, uniqueEvidence } from './evidence.ts';
import { clamp, round2 } from './format.ts';
import { FILLERS, POLITE } from './lexicon.ts';
import type { Token, Unit } from './tokens.ts';

const NAME_CUES: string[][] = [['name', 'is'], ['name', "'s"], ['this', 'is'], ['speaking', 'with'], ['i', 'am'], ["i'm"], ['it', 'is'], ['it', "'s"]];

/** Up to three words after the first cue, capitalised; null without a cue or a plausible name. */
function findName(u: Unit): string | null {
  for (const cue of NAME_CUES) {
    for (let i = 0; i + cue.length <= u.toks.length; i++) {
      if (!cue.every((c, k) => u.toks[i + k]?.normal === c || u.toks[i + k]?.value.toLowerCase() === c)) continue;
      const out: Token[] = [];
      for (let k = i + cue.length; k < u.toks.length && out.length < 3; k++) {
        const t = u.toks[k];
        if (t === undefined || t.stop || t.type !== 'word' || FILLERS.has(t.normal) || POLITE.has(t.normal) || t.pos === 'VERB' || t.pos === 'ADJ' || t.pos === 'ADV') break;
        out.push(t);
      }
      if (out.length > 0) {
        return out.map((t) => (t.value[0]?.toUpperCase() ?? '') + t.value.slice(1)).join(' ');
      }
    }
  }
  return null;
}

/** The name in the first of `units` that has one. */
export function nameAnswer(units: Unit[], confidence: number): AnswerBody<string> | null {
  for (const u of units) {
    const name = findName(u);
    if (name !== null) return { answer: name, confidence: round2(clamp(confidence, 0.2, 0.9)), evidence: uniqueEvidence([u]) };
  }
  return null;
}
