import { describe, expect, it } from 'vitest';
import { isMadeKey, questionKey } from './question-key.ts';

describe('questionKey', () => {
  it('keeps three telling words of the question', () => {
    expect(questionKey('Did the agent offer a refund?', [])).toBe('agent_offer_refund');
    expect(questionKey('What did the customer ask for?', [])).toBe('customer_ask');
    expect(questionKey('Café?', [])).toBe('cafe');
  });
  it('is unique among the keys taken, and never empty', () => {
    expect(questionKey('Did the agent offer a refund?', ['agent_offer_refund'])).toBe('agent_offer_refund_2');
    expect(questionKey('?', [])).toBe('question');
  });
  it('tells a key made from the words (or a q<n>) from one typed by hand', () => {
    expect(isMadeKey('q5', 'Anything', [])).toBe(true);
    expect(isMadeKey('agent_offer', 'Did the agent offer', [])).toBe(true);
    expect(isMadeKey('refund', 'Did the agent offer a refund?', [])).toBe(false);
  });
});
