// Evidence from units, and the shape both answerers return.
import type { Evidence } from '../types.ts';
import { truncate } from './format.ts';
import type { Unit } from './tokens.ts';

export interface AnswerBody<T extends boolean | string> {
  answer: T;
  confidence: number;
  evidence: Evidence[];
  related?: Evidence[];
}

const EVIDENCE_MAX_CHARS = 300;

function evidenceOf(u: Unit): Evidence {
  return { text: truncate(u.text, EVIDENCE_MAX_CHARS), start: u.start, end: u.end };
}

/** Evidence for the first `max` distinct units, in the given order (skips undefined). */
export function uniqueEvidence(units: (Unit | undefined)[], max = 3): Evidence[] {
  const seen = new Set<number>();
  const out: Evidence[] = [];
  for (const u of units) {
    if (u === undefined || seen.has(u.idx)) continue;
    seen.add(u.idx);
    out.push(evidenceOf(u));
    if (out.length >= max) break;
  }
  return out;
}
