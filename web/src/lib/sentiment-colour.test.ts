import { describe, expect, test } from 'vitest';
import { NEGATIVE_SENTIMENT, POSITIVE_SENTIMENT } from './filters.ts';
import { sentimentColour } from './sentiment-colour.ts';

const grey = 'rgba(134, 142, 150, 0.35)';
const hue = (colour: string) => colour.slice(0, colour.lastIndexOf(','));

describe('sentiment lanes', () => {
  test('coloured by the sentiment filter\'s bounds, not by the sign', () => {
    // "I want to cancel my contract right now" scored +0.18 once and showed green.
    expect(sentimentColour(0.18)).toBe(grey);
    expect(sentimentColour(-0.04)).toBe(grey);
    expect(sentimentColour(POSITIVE_SENTIMENT)).toBe(grey);
    expect(sentimentColour(NEGATIVE_SENTIMENT)).toBe(grey);
    expect(hue(sentimentColour(0.21))).toBe('rgba(47, 158, 68');
    expect(hue(sentimentColour(-0.06))).toBe('rgba(224, 49, 49');
  });

  test('stronger the further out, up to full', () => {
    expect(sentimentColour(-0.3)).toBe('rgba(224, 49, 49, 0.65)');
    expect(sentimentColour(0.9)).toBe('rgba(47, 158, 68, 1.00)');
  });
});
