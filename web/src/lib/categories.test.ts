import { describe, expect, test } from 'vitest';
import { blankCondition, callWide, describeRule, withMetric } from './categories.ts';

describe('talk statistics', () => {
  test('silence and overlap are the call\'s: choosing one drops the speaker, another keeps it', () => {
    expect(callWide('silence_seconds')).toBe(true);
    expect(callWide('talk_ratio')).toBe(false);
    const agent = { type: 'talk' as const, metric: 'talk_ratio' as const, speaker: 'agent', op: 'above' as const, value: 0.6 };
    expect(withMetric(agent, 'overlap_seconds')).toEqual({ type: 'talk', metric: 'overlap_seconds', op: 'above', value: 0.6 });
    expect(withMetric(agent, 'words_per_minute')).toEqual({ ...agent, metric: 'words_per_minute' });
  });
});

describe('categories in words', () => {
  test('each kind of condition reads as a sentence, joined by the rule\'s match', () => {
    expect(
      describeRule({
        match: 'all',
        conditions: [
          { type: 'phrase', phrases: ['refund', 'money back'], speaker: 'agent', within_seconds: 60 },
          { type: 'talk', metric: 'interruptions', op: 'above', value: 2 },
          { type: 'sentiment', speaker: 'customer', part: 'last_third', op: 'below', value: -0.2 },
        ],
      }),
    ).toBe('agent says “refund” or “money back” in the first 60 s and the call: interruptions above 2 and customer: sentiment in the last third below −0.2');
    expect(describeRule({ match: 'any', conditions: [{ type: 'phrase', phrases: ['cancel'], said: false }, blankCondition('talk')] })).toBe('anyone never says “cancel” or the call: silence (s) above 30');
    expect(
      describeRule({
        match: 'any',
        conditions: [
          { type: 'similar_to', text: 'I want my money back', speaker: 'customer' },
          { type: 'similar_to', text: 'let me get my manager', threshold: 0.7, within_seconds: 30 },
        ],
      }),
    ).toBe('customer says something like “I want my money back” or anyone says something like “let me get my manager” in the first 30 s (similarity 0.7)');
  });
});
