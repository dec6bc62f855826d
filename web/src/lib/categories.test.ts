import { describe, expect, test } from 'vitest';
import { blankCondition, describeRule } from './categories.ts';

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
    ).toBe('agent says “refund” or “money back” in the first 60 s and the call: interruptions above 2 and customer: sentiment in the last third below -0.2');
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
