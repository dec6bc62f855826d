// The colour of a sentence's sentiment along the call (the recording page's lanes).
import { NEGATIVE_SENTIMENT, POSITIVE_SENTIMENT } from './filters.ts';

/**
 * A sentiment score's colour, by the bounds the sentiment filter uses (those that agree best with
 * hand-labelled turns): red below −0.05, green above 0.2, grey between (a request, a fact: "I want
 * to cancel" is no pleasure); stronger the further out.
 */
export function sentimentColour(score: number): string {
  if (score >= NEGATIVE_SENTIMENT && score <= POSITIVE_SENTIMENT) return 'rgba(134, 142, 150, 0.35)';
  const strength = Math.min(1, 0.35 + Math.abs(score));
  return score > 0 ? `rgba(47, 158, 68, ${strength.toFixed(2)})` : `rgba(224, 49, 49, ${strength.toFixed(2)})`;
}
