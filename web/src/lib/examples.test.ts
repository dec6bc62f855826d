import { describe, expect, it } from 'vitest';
import { asExample, MAX_EXAMPLES, withExample } from './examples.ts';

const yesNo = { id: 'refund', text: 'Was a refund offered?', type: 'boolean' as const };
const other = { id: 'reason', text: 'Why did they call?', type: 'text' as const };

describe('a passage taught as an example', () => {
  it('is taken whole, never cut short, too long or wordless', () => {
    expect(asExample('  I can refund that for you. ')).toBe('I can refund that for you.');
    expect(asExample('i can refund that for you and then we will…')).toBeNull();
    expect(asExample('a'.repeat(301))).toBeNull();
    expect(asExample(' ?! ')).toBeNull();
  });

  it('is added to its question alone, the others kept as they are', () => {
    const questions = [{ ...yesNo, examples: ['We will refund you.'] }, other];
    expect(withExample(questions, 'refund', 'I can refund that.')).toEqual({ questions: [{ ...yesNo, examples: ['We will refund you.', 'I can refund that.'] }, other] });
  });

  it('is not added twice, whatever its case and punctuation', () => {
    expect(withExample([{ ...yesNo, examples: ['I can refund that.'] }], 'refund', 'i can refund that')).toEqual({ unchanged: true });
  });

  it('is refused where the question is gone, answered by phrases, or full', () => {
    expect(withExample([other], 'refund', 'I can refund that.')).toEqual({ refused: 'The question is no longer in the scenario.' });
    expect(withExample([{ ...yesNo, phrases: ['refund'] }], 'refund', 'x y')).toEqual({ refused: 'The question is answered by its phrases: it takes no examples.' });
    expect(withExample([{ ...yesNo, examples: Array.from({ length: MAX_EXAMPLES }, (_, i) => `example ${i}`) }], 'refund', 'x y')).toEqual({ refused: `The question has ${MAX_EXAMPLES} examples already.` });
  });
});
